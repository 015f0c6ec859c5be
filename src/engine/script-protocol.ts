/**
 * The messages between the engine (main thread) and the script worker (src/engine/script-worker.ts).
 * Types only: the worker imports nothing at run time beyond Node built-ins.
 */
import type { ErrorInfo } from './errors.js';

/** What the worker starts with. */
export interface ScriptWorkerData {
  code: string;
  filename: string;
  /** The live document when the script starts (a structured clone). */
  document: unknown;
  maxLogLines: number;
}

/** Worker -> main. */
export type ScriptWorkerMessage =
  | { type: 'run'; seq: number; id: string; params: unknown }
  | { type: 'log'; line: string }
  | { type: 'done'; result: unknown }
  /** compile: a syntax error; threw: the script threw; engine: an app.run failure the script did not catch. */
  | { type: 'failed'; kind: 'compile' | 'threw' | 'engine' | 'result'; message: string; error?: ErrorInfo };

/** Main -> worker: the answer to one `run`, with the document when it changed since the last one sent. */
export type ScriptHostMessage =
  | { type: 'reply'; seq: number; ok: true; result: unknown; document?: unknown }
  | { type: 'reply'; seq: number; ok: false; error: ErrorInfo; document?: unknown };
