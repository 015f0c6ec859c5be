/**
 * The scripting API: a script is the body of an async function that gets `app` with
 * `app.run(id, params)` (throws on a failed command), `app.document` (the live document, read-only) and `app.log`.
 * It runs in a thread of its own, started through the engine's ports (`startScript`; in Node a worker thread,
 * src/node-io/script-worker.ts), so a wall-clock limit can stop it even in a tight synchronous loop: the thread
 * is stopped, and the commands it already ran stay applied (each its own undo step). The thread is not a
 * security boundary: scripts are refused while confined.
 */
import type { CommandContext } from './catalog.js';
import { EngineError } from './errors.js';
import type {
  ScriptHostMessage,
  ScriptThread,
  ScriptWorkerData,
  ScriptWorkerMessage,
} from './script-protocol.js';
import { fitLogs, marker } from './script-logs.js';

export interface ScriptResult {
  result: unknown;
  logs: string[];
  commands: number;
  /** Lines logged and not kept (between the first and the last 500); the logs mark where. */
  logsOmitted?: number;
  /** Why `result` is null though the script returned something: its JSON was over MAX_RESULT_CHARS. */
  note?: string;
}

/** The default wall-clock limit for a whole script. */
export const DEFAULT_SCRIPT_TIMEOUT_MS = 30_000;
/** The largest limit a caller may ask for. */
export const MAX_SCRIPT_TIMEOUT_MS = 600_000;
/** How long a script's thread may take to start the script (its own limit counts from then). */
export const SCRIPT_START_LIMIT_MS = 10_000;
const MAX_LOG_LINES = 1000;
/** The largest return value a result carries, as JSON characters: a tool result is read by a model. */
export const MAX_RESULT_CHARS = 65_536;

/** Runs `code` in a fresh thread; ends with its result, or an EngineError (timeout, cancelled, the script's own). */
export async function runScriptCode(
  code: string,
  ctx: CommandContext,
  filename = 'script.js',
  timeoutMs = DEFAULT_SCRIPT_TIMEOUT_MS,
): Promise<ScriptResult> {
  if (ctx.signal.aborted) throw cancelled(0);
  const workerData: ScriptWorkerData = { code, filename, document: ctx.doc, maxLogLines: MAX_LOG_LINES };
  let thread: ScriptThread | undefined;

  const logs: string[] = [];
  let logsOmitted = 0;
  let commands = 0;
  // Those that succeeded: what a failed script leaves applied.
  let succeeded = 0;
  let lastSent = ctx.doc;
  /** Commands the script is waiting on: a stop waits for them so the count of applied commands is exact. */
  const inFlight = new Set<Promise<void>>();
  let settled = false;
  // Commands the script runs stop with it: a timeout or a cancel also stops a render the script is waiting on.
  const stopNested = new AbortController();
  const nestedSignal = AbortSignal.any([ctx.signal, stopNested.signal]);

  const ended = new Promise<ScriptResult>((resolve, reject) => {
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopNested.abort();
      ctx.signal.removeEventListener('abort', onAbort);
      thread?.stop();
      outcome();
    };
    // Stops the script now; the error is reported once the command it is waiting on (if any) has finished.
    const stop = (error: () => EngineError) =>
      finish(() => void Promise.all(inFlight).then(() => reject(error())));
    // The limit is the script's own running time and starts with it: a thread slow to boot (a loaded machine,
    // or tsx compiling the worker's source in tests) does not eat into it. Until then only a thread that never
    // starts the script is stopped.
    let timer = setTimeout(() => stop(notStarted), SCRIPT_START_LIMIT_MS);
    const onAbort = () => stop(() => cancelled(commands));
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    const onMessage = (m: ScriptWorkerMessage) => {
      if (settled) return;
      switch (m.type) {
        case 'started':
          clearTimeout(timer);
          timer = setTimeout(() => stop(() => timedOut(timeoutMs, commands)), timeoutMs);
          return;
        case 'log':
          if (logs.length < MAX_LOG_LINES) logs.push(m.line);
          return;
        case 'logTail':
          logsOmitted = m.omitted;
          if (m.omitted) logs.push(marker(m.omitted));
          logs.push(...m.lines);
          return;
        case 'run':
          commands++;
          track(runFor(m.seq, m.id, m.params));
          return;
        case 'done':
          finish(() => {
            // Every client gets results as JSON: a value JSON cannot hold (a cycle, a BigInt) is the script's error.
            let json: string;
            try {
              json = JSON.stringify(m.result ?? null);
            } catch (err) {
              reject(
                new EngineError(
                  'bad_argument',
                  `The script's return value cannot be sent as JSON (${(err as Error).message}).`,
                  'Return plain data: objects, arrays, strings, numbers, booleans or null, without cycles.',
                ),
              );
              return;
            }
            const fitted = fitLogs(logs, logsOmitted);
            const omitted = fitted.omitted ? { logsOmitted: fitted.omitted } : {};
            if (json.length > MAX_RESULT_CHARS) {
              const note =
                `The script's return value is ${json.length} characters of JSON, over the ${MAX_RESULT_CHARS} a ` +
                `result carries, so it is left out (it began: ${json.slice(0, 300)}). Return less: a count, a ` +
                'slice, only the fields or ids needed.';
              resolve({ result: null, logs: fitted.logs, commands, ...omitted, note });
              return;
            }
            resolve({ result: m.result ?? null, logs: fitted.logs, commands, ...omitted });
          });
          return;
        case 'failed':
          finish(() => reject(scriptError(m, logs, succeeded)));
          return;
      }
    };
    try {
      thread = ctx.ports.startScript(workerData, {
        message: onMessage,
        error: (err) =>
          finish(() =>
            reject(
              new EngineError(
                'tool_failed',
                `The script failed: ${err.message}`,
                `Fix the script (an unawaited app.run that fails counts too). ${loggedBefore(logs)}`,
              ),
            ),
          ),
        exit: () =>
          finish(() =>
            reject(new EngineError('tool_failed', 'The script stopped before it returned.', 'Run it again.')),
          ),
      });
    } catch (err) {
      // No thread (refused while confined, tsx missing when running from sources): the command fails with why.
      finish(() => reject(err));
    }
  });

  function track(p: Promise<void>): void {
    inFlight.add(p);
    void p.then(() => inFlight.delete(p));
  }

  /** Runs one app.run for the script and answers it. Never rejects. */
  async function runFor(seq: number, id: string, params: unknown): Promise<void> {
    const r = await ctx.execute(id, params, nestedSignal);
    if (r.ok) succeeded++;
    if (settled) return; // The script was stopped meanwhile: the edit stays, nobody is waiting for the answer.
    const doc = ctx.doc;
    const document = doc !== lastSent ? doc : undefined;
    lastSent = doc;
    const reply: ScriptHostMessage = r.ok
      ? { type: 'reply', seq, ok: true, result: r.result, document }
      : { type: 'reply', seq, ok: false, error: r.error, document };
    try {
      thread?.post(reply);
    } catch {
      // A result that is not structured-cloneable: send its JSON form (results are JSON for every other client).
      try {
        const asJson: unknown = JSON.parse(JSON.stringify(r.ok ? r.result : null) ?? 'null');
        thread?.post(reply.ok ? { ...reply, result: asJson } : reply);
      } catch (err) {
        const error = {
          code: 'tool_failed' as const,
          message: `${id}: its result cannot be sent to the script: ${(err as Error).message}`,
          remediation: 'Run the command outside the script.',
        };
        thread?.post({ type: 'reply', seq, ok: false, error, document } satisfies ScriptHostMessage);
      }
    }
  }

  return ended;
}

function scriptError(
  m: Extract<ScriptWorkerMessage, { type: 'failed' }>,
  logged: readonly string[],
  commands: number,
): EngineError {
  // What the script changed before it failed stays: a caller that runs it again must know, or it repeats them.
  const applied = commands
    ? ` (${commands} command(s) it ran before that succeeded: their edits stay applied, each its own undo step)`
    : '';
  if (m.kind === 'engine' && m.error)
    return new EngineError(m.error.code, `${m.message}${applied}`, m.error.remediation);
  if (m.kind === 'compile') {
    return new EngineError(
      'bad_argument',
      `The script does not compile: ${m.message}`,
      'Fix the syntax error; the script is the body of an async function.',
    );
  }
  if (m.kind === 'result') {
    return new EngineError(
      'tool_failed',
      `The script's result cannot be returned: ${m.message}${applied}`,
      'Return plain data (objects, arrays, strings, numbers, booleans, null).',
    );
  }
  return new EngineError(
    'tool_failed',
    `The script threw: ${m.message}${applied}`,
    `Fix the script. ${loggedBefore(logged)}`,
  );
}

/** The last lines a failed script logged, for its remedy: what it got to is the first clue to what went wrong. */
const SHOWN_LOG_LINES = 10;
function loggedBefore(logs: readonly string[]): string {
  if (!logs.length) return 'It logged nothing before it failed.';
  const shown = logs.slice(-SHOWN_LOG_LINES).map((l) => (l.length > 200 ? `${l.slice(0, 200)}...` : l));
  const skipped = logs.length - shown.length;
  return `Lines logged before it failed (${logs.length}${skipped ? `, the last ${shown.length}` : ''}): ${shown.join(' | ')}`;
}

function timedOut(ms: number, commands: number): EngineError {
  return new EngineError(
    'timeout',
    `The script ran longer than ${ms} ms and was stopped after ${commands} command(s); ` +
      'the edits those commands made stay applied, each its own undo step.',
    `Make the script finish sooner, or raise the limit: timeoutMs on script.run/file.runScript ` +
      `(timeout_ms on the MCP run_script tool), up to ${MAX_SCRIPT_TIMEOUT_MS} ms.`,
  );
}

function notStarted(): EngineError {
  return new EngineError(
    'timeout',
    `The script's thread did not start the script within ${SCRIPT_START_LIMIT_MS} ms; nothing ran.`,
    'Run it again; if it happens again the machine is overloaded (wait for running renders to finish).',
  );
}

function cancelled(commands: number): EngineError {
  return new EngineError(
    'cancelled',
    `The script was cancelled after ${commands} command(s); the edits those commands made stay applied.`,
    'Run it again to finish it.',
  );
}
