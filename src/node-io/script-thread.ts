/**
 * The thread a script runs in (the engine's `startScript` port): a worker thread on script-worker.ts, which
 * `worker.terminate()` stops even inside a tight synchronous loop. The engine keeps the protocol (replies,
 * limits, error codes, src/engine/scripting.ts); this file only owns the thread.
 */
import { Worker } from 'node:worker_threads';
import type { ScriptThread, ScriptThreadEvents, ScriptWorkerData } from '../engine/script-protocol.js';
import { workerEntryUrl } from './worker-url.js';

/** Starts the worker; `output` receives whatever the script's thread writes to stdout or stderr. */
export function startScriptThread(
  data: ScriptWorkerData,
  events: ScriptThreadEvents,
  output: (chunk: Buffer) => void,
): ScriptThread {
  // stdout/stderr are captured so nothing the worker writes can reach `mcp`'s protocol channel.
  const worker = new Worker(workerEntryUrl('./script-worker.js', import.meta.url), {
    workerData: data,
    stdout: true,
    stderr: true,
  });
  worker.stdout.on('data', output);
  worker.stderr.on('data', output);
  worker.on('message', (m) => events.message(m));
  worker.on('error', (err) => events.error(err));
  worker.on('exit', () => events.exit());
  return {
    post: (m) => worker.postMessage(m),
    stop: () => void worker.terminate(),
  };
}
