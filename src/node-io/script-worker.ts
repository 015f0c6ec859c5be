/**
 * The script worker: runs one script in its own thread (its own V8 isolate), so the engine can stop it with
 * `worker.terminate()` even in a tight synchronous loop. The script sees the same API as before: `app.run`
 * (posts the command to the main thread, which runs it through the engine), `app.document` (a synchronous getter
 * over the copy the main thread sends at start and with every app.run reply), `app.log` and `console.log`.
 * The script runs in a vm context with only `app` and `console`; neither the thread nor the context is a
 * security boundary (a script can reach Node from here), which is why scripts are refused while confined.
 */
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { ErrorInfo } from '../engine/errors.js';
import type { ScriptHostMessage, ScriptWorkerData, ScriptWorkerMessage } from '../engine/script-protocol.js';
// Pure and dependency-free: the thread loads nothing of the engine but this.
import { cutLine } from '../engine/script-logs.js';

const data = workerData as ScriptWorkerData;
const port = parentPort!;
const post = (m: ScriptWorkerMessage) => port.postMessage(m);

let document = data.document;
let frozen = false;
let seq = 0;
let logged = 0;
// Past the first half of the lines a result keeps, only the last half is kept (sent when the script ends): a
// script that logs in a loop is understood by how it began and how it ended; `omitted` counts the middle.
const tail: string[] = [];
let omitted = 0;
function flushTail(): void {
  if (tail.length) post({ type: 'logTail', lines: tail.splice(0), omitted });
}
const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
/** Errors raised by app.run: when one escapes the script, the command fails with its engine code. */
const engineErrors = new WeakMap<object, ErrorInfo>();

port.on('message', (m: ScriptHostMessage) => {
  if (m.document !== undefined) {
    document = m.document;
    frozen = false;
  }
  const waiter = pending.get(m.seq);
  if (!waiter) return;
  pending.delete(m.seq);
  if (m.ok) {
    waiter.resolve(m.result);
    return;
  }
  const err = new Error(m.error.message);
  Object.assign(err, { name: 'EngineError', code: m.error.code, remediation: m.error.remediation });
  engineErrors.set(err, m.error);
  waiter.reject(err);
});

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

const app = Object.freeze({
  run(id: string, params?: unknown): Promise<unknown> {
    const n = ++seq;
    return new Promise((resolve, reject) => {
      pending.set(n, {
        resolve,
        reject: (err: unknown) => {
          // Same message shape as before the worker: "<command id>: <engine message>".
          if (err instanceof Error) err.message = `${id}: ${err.message}`;
          reject(err);
        },
      });
      post({ type: 'run', seq: n, id, params: params ?? {} });
    });
  },
  get document(): unknown {
    // Read-only like the engine's own (immer-frozen) document; frozen lazily so scripts that never look pay nothing.
    if (!frozen) {
      deepFreeze(document);
      frozen = true;
    }
    return document;
  },
  log(...args: unknown[]): void {
    const line = cutLine(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    if (logged < data.maxLogLines / 2) {
      logged++;
      post({ type: 'log', line });
      return;
    }
    if (tail.push(line) > data.maxLogLines / 2) {
      tail.shift();
      omitted++;
    }
  },
});

/**
 * The console a script sees: every method a script from a browser or Node may call writes a logged line
 * (warn and error marked so), none to this process's stdout, which is the MCP protocol's.
 */
const scriptConsole = Object.freeze({
  log: app.log,
  info: app.log,
  debug: app.log,
  trace: app.log,
  warn: (...args: unknown[]) => app.log('warning:', ...args),
  error: (...args: unknown[]) => app.log('error:', ...args),
});

function sendResult(result: unknown): void {
  flushTail();
  try {
    post({ type: 'done', result: result ?? null });
    return;
  } catch {
    // Not structured-cloneable (functions, class instances with private state...): fall back to its JSON form.
  }
  try {
    const json = JSON.stringify(result);
    post({ type: 'done', result: json === undefined ? null : (JSON.parse(json) as unknown) });
  } catch (err) {
    post({ type: 'failed', kind: 'result', message: (err as Error).message });
  }
}

async function main(): Promise<void> {
  let fn: () => Promise<unknown>;
  try {
    const script = new vm.Script(`(async () => {\n${data.code}\n})`, { filename: data.filename });
    fn = script.runInNewContext({ app, console: scriptConsole }) as () => Promise<unknown>;
  } catch (err) {
    post({ type: 'failed', kind: 'compile', message: (err as Error)?.message ?? String(err) });
    return;
  }
  let result: unknown;
  post({ type: 'started' });
  try {
    result = await fn();
  } catch (err) {
    const info = err !== null && typeof err === 'object' ? engineErrors.get(err) : undefined;
    const message = (err as Error | undefined)?.message ?? String(err);
    flushTail();
    post(
      info
        ? { type: 'failed', kind: 'engine', message, error: info }
        : { type: 'failed', kind: 'threw', message },
    );
    return;
  }
  sendResult(result);
}

void main();
