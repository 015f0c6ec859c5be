/**
 * The scripting API: a script is the body of an async function that gets `app` with
 * `app.run(id, params)` (throws on a failed command), `app.document` (the live, frozen document) and `app.log`.
 * vm keeps the script's globals apart from ours; it is not a security boundary (scripts are refused while confined).
 */
import vm from 'node:vm';
import type { CommandContext } from './catalog.js';
import { EngineError } from './errors.js';

export interface ScriptResult {
  result: unknown;
  logs: string[];
  commands: number;
}

const MAX_LOG_LINES = 1000;

export async function runScriptCode(
  code: string,
  ctx: CommandContext,
  filename = 'script.js',
): Promise<ScriptResult> {
  const logs: string[] = [];
  let commands = 0;
  const app = Object.freeze({
    run: async (id: string, params?: unknown) => {
      commands++;
      const r = await ctx.execute(id, params ?? {});
      if (!r.ok) throw new EngineError(r.error.code, `${id}: ${r.error.message}`, r.error.remediation);
      return r.result;
    },
    get document() {
      return ctx.doc;
    },
    log: (...args: unknown[]) => {
      if (logs.length < MAX_LOG_LINES)
        logs.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    },
  });
  let fn: () => Promise<unknown>;
  try {
    const script = new vm.Script(`(async () => {\n${code}\n})`, { filename });
    fn = script.runInNewContext(
      { app, console: { log: app.log } },
      { timeout: 5000 },
    ) as () => Promise<unknown>;
  } catch (err) {
    throw new EngineError(
      'bad_argument',
      `The script does not compile: ${(err as Error).message}`,
      'Fix the syntax error; the script is the body of an async function.',
    );
  }
  try {
    const result = await fn();
    return { result: result ?? null, logs, commands };
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError(
      'tool_failed',
      `The script threw: ${(err as Error)?.message ?? String(err)}`,
      `Fix the script. Lines logged before it failed: ${logs.length}.`,
    );
  }
}
