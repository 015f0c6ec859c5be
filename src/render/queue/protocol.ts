/** Messages between the render job (main thread) and its worker threads. */
import type { ErrorInfo, Project } from '../../engine/index.js';
import type { FramePayload } from '../encode.js';

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

/** Ends the worker's decoders (and reaps them) before the pool terminates it; answered with `stopped`. */
export interface StopRequest {
  type: 'stop';
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
