/** Messages between the render job (main thread) and its worker threads. */
import type { ErrorInfo, Project } from '../../engine/index.js';
import type { FramePayload } from '../encode.js';

/** What a render worker is started with (workerData): what it loads once, and keeps for every job it takes. */
export type WorkerBoot = Pick<WorkerInit, 'rendererModule' | 'niceness'>;

/** One render's data for a worker (its `job` message); a kept worker takes one job after another. */
export interface WorkerInit {
  doc: Project;
  /**
   * Stills' bytes read by the main thread through the engine's ports (workers never read files); sequence frames
   * are asked for one by one (`read`).
   */
  footage: Array<[string, Uint8Array]>;
  /** Module exporting createFrameRenderer (default: the compositor, src/render/index.ts). */
  rendererModule: string;
  /**
   * Video footage: ffmpeg and ffprobe, and each file's childPath (a descriptor the main thread opened).
   * `checked`: the main thread has checked every file against its footage item (footage-unchanged.ts), so no
   * decoder waits for that ffprobe before its first frame.
   */
  media: { ffmpeg: string | null; ffprobe: string | null; files: Array<[string, string]>; checked: boolean };
  /**
   * How much to lower the worker thread's priority (its nice value, raised by this; the decoders it starts
   * inherit it): above 0 while it feeds an encoder child, which then comes first (item.ts, workerNiceness).
   */
  niceness: number;
}

export interface BatchRequest {
  type: 'batch';
  batch: number;
  compId: string;
  frameRate: number;
  frames: number[];
  scale: number;
  /** RGB + Alpha items render on a transparent background (frames come back premultiplied). */
  transparent: boolean;
  payload: FramePayload;
}

/** The bytes of an image-sequence frame a worker asked for (`read`), or why they cannot be had. */
export interface BytesReply {
  type: 'bytes';
  id: number;
  bytes?: Uint8Array;
  error?: ErrorInfo;
}

/** Raw frame buffers the job has written, handed back (transferred) for the worker's next frames. */
export interface ReturnRequest {
  type: 'return';
  buffers: ArrayBuffer[];
}

/**
 * Ends the worker's job: its renderer, and its decoders (reaped), answered with `stopped`; then the pool
 * terminates it or keeps it for the next render (warm-workers.ts).
 */
export interface StopRequest {
  type: 'stop';
}

/** Starts a render's job on a worker with none; answered with `ready` once its renderer is made. */
export interface JobRequest {
  type: 'job';
  init: WorkerInit;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'frame'; batch: number; frame: number; width: number; height: number; data: Uint8Array }
  | { type: 'done'; batch: number }
  /** A decoder child started (alive) or ended: the pool kills those still alive when it is destroyed. */
  | { type: 'child'; pid: number; alive: boolean }
  | { type: 'stopped' }
  /** An image-sequence frame's bytes, asked of the main thread (which reads through the engine's ports). */
  | { type: 'read'; id: number; path: string }
  | { type: 'error'; batch: number; error: ErrorInfo };
