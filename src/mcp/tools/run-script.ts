/**
 * run_script: runs JavaScript against the scripting API (`app.run(id, params)`, a read-only
 * `app.document`, `app.log`), given inline (`script.run`) or as a file (`file.runScript`).
 * Runs in a worker thread with a wall-clock limit (timeout_ms, default 30 s).
 * Refused while confined: a script can do anything the process can.
 */
import { z } from 'zod';
import { defineTool, fromExecute } from './types.js';

export const runScript = defineTool({
  name: 'run_script',
  title: 'Run Script',
  description:
    'Runs JavaScript (the body of an async function) with `app.run(id, params)`, a read-only `app.document` and `app.log`. Pass `code` or an absolute `path`. Returns {result, logs, commands}: logs keep the first and last 500 lines (logsOmitted counts the rest); a result over 64 KB of JSON is left out with a note. Stopped with code timeout after timeout_ms (default 30 s), or by notifications/cancelled; commands it already ran stay applied, and a render it waits on stops with it. Other tool calls wait for it (calls run in order). Refused while confined.',
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // notifications/cancelled stops the script (and any render it waits on), as the time limit does.
  cancellable: true,
  input: z.strictObject({
    code: z.string().min(1).optional().describe('Script source.'),
    path: z.string().min(1).optional().describe('Absolute path of a .js script file.'),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(600_000)
      .optional()
      .describe('Wall-clock limit for the whole script in ms (default 30000, max 600000).'),
  }),
  async run(args, ctx) {
    if ((args.code === undefined) === (args.path === undefined)) {
      return {
        kind: 'error',
        error: {
          code: 'bad_argument',
          message: 'run_script needs exactly one of "code" or "path".',
          remediation: 'Pass the script inline as code, or an absolute path to a script file.',
        },
      };
    }
    const refused = ctx.confinement?.checkTool('run_script') ?? null;
    if (refused) return { kind: 'error', error: refused };
    const limit = args.timeout_ms === undefined ? {} : { timeoutMs: args.timeout_ms };
    const r =
      args.code !== undefined
        ? await ctx.backend.execute('script.run', { code: args.code, ...limit }, { signal: ctx.signal })
        : await ctx.backend.execute('file.runScript', { path: args.path, ...limit }, { signal: ctx.signal });
    return fromExecute(r);
  },
});
