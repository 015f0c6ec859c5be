/** Messages between a session's preview worker (preview/worker.ts) and its main-thread side (preview/client.ts). */
import type { ErrorInfo, Project, StillEncoding } from '../../engine/index.js';
import type { RenderOptions } from '../types.js';

/** A frame to draw. `doc` is sent only when it is not the document the worker already holds (a new snapshot). */
export interface RenderRequest {
  type: 'render';
  id: number;
  doc?: Project;
  compId: string;
  time: number;
  options: Omit<RenderOptions, 'signal'>;
  /** Encode the frame in the worker and answer `still` (the file's bytes) instead of `frame` (pixels). */
  encode?: StillEncoding;
}

/** Why a footage read failed: an engine error (a confinement refusal keeps its code) or a system error code. */
export type ReadFailure = { info: ErrorInfo } | { errno: string | undefined; message: string };

/** The answer to a worker's `read`: the file's bytes, or why they could not be read. */
export interface FootageReply {
  type: 'footage';
  id: number;
  bytes?: Uint8Array;
  failure?: ReadFailure;
}

/** The answer to a worker's `open`: the path its ffmpeg children read the video through, or why not. */
export interface OpenReply {
  type: 'opened';
  id: number;
  childPath?: string;
  failure?: ReadFailure;
}

/** What the worker is started with (workerData). */
export interface PreviewWorkerData {
  ffmpeg: string | null;
  ffprobe: string | null;
}

export type ToWorker = RenderRequest | FootageReply | OpenReply | { type: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  /** The worker needs the bytes of a footage file: the main thread reads it through the session's ports. */
  | { type: 'read'; id: number; path: string }
  /** The worker needs a video file opened for its decoders: the main thread opens it through the ports. */
  | { type: 'open'; id: number; path: string }
  /** A decoder child started or ended: the main thread ends those still alive when it stops the worker. */
  | { type: 'child'; pid: number; alive: boolean }
  /** The answer to `stop`: the worker's decoders have ended and been reaped; it may be terminated. */
  | { type: 'stopped' }
  | {
      type: 'frame';
      id: number;
      width: number;
      height: number;
      rgba: Uint8Array;
      premultiplied: boolean;
      warnings: string[];
    }
  | { type: 'still'; id: number; width: number; height: number; bytes: Uint8Array; warnings: string[] }
  /**
   * An expected failure (its code and remedy), or, with `stack`, a bug: the client then sees tool_failed with
   * the message, and the stack goes to the server log only.
   */
  | { type: 'error'; id: number; error: ErrorInfo; stack?: string };
