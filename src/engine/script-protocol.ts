/**
 * The messages between the engine (main thread) and the script worker (src/node-io/script-worker.ts), and the
 * thread the engine's ports start it in. Types only: the worker imports nothing at run time beyond Node built-ins.
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
  /** The script compiled and begins to run: its wall-clock limit counts from here. */
  | { type: 'started' }
  | { type: 'run'; seq: number; id: string; params: unknown }
  | { type: 'log'; line: string }
  /** The last lines logged past the first half of maxLogLines, sent as the script ends; `omitted` between. */
  | { type: 'logTail'; lines: string[]; omitted: number }
  | { type: 'done'; result: unknown }
  /** compile: a syntax error; threw: the script threw; engine: an app.run failure the script did not catch. */
  | { type: 'failed'; kind: 'compile' | 'threw' | 'engine' | 'result'; message: string; error?: ErrorInfo };

/** Main -> worker: the answer to one `run`, with the document when it changed since the last one sent. */
export type ScriptHostMessage =
  | { type: 'reply'; seq: number; ok: true; result: unknown; document?: unknown }
  | { type: 'reply'; seq: number; ok: false; error: ErrorInfo; document?: unknown };

/** What the engine hears from a running script thread. */
export interface ScriptThreadEvents {
  message(m: ScriptWorkerMessage): void;
  /** The thread failed outside the script's own error handling (e.g. an unawaited app.run that rejected). */
  error(err: Error): void;
  /** The thread ended: after stop(), an error, or on its own. */
  exit(): void;
}

/** A running script thread, as the engine drives it. */
export interface ScriptThread {
  /** Sends a message; throws when it cannot be structured-cloned (the caller then sends its JSON form). */
  post(m: ScriptHostMessage): void;
  /** Ends the thread now, whatever the script is doing. Safe to call twice. */
  stop(): void;
}
