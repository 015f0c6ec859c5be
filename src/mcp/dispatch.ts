/**
 * Our `tools/list` and `tools/call` handlers, generated from the tool table. We replace the SDK's because
 * it strips unknown argument keys (z.object) or reports them as isError results (z.strictObject); here
 * arguments are checked first and unknown keys are JSON-RPC -32602 naming the key and the accepted ones.
 */
import { z } from 'zod';
import type { CallToolResult, ServerContext, Tool } from '@modelcontextprotocol/server';
import type { Confinement } from '../confinement/types.js';
import type { Backend } from './backend.js';
import type { CallOrder } from './call-order.js';
import type { CapabilityProbe } from './capabilities.js';
import { isAppOnly, listedFor, toolUiMeta } from './player/apps.js';
import { createProgressReporter } from './progress.js';
import {
  argumentsNotObject,
  errorResult,
  toCallToolResult,
  unexpectedFailure,
  unknownArguments,
  unknownTool,
} from './results.js';
import type { TaskStore } from './tasks/store.js';
import { startAsTask } from './tasks/tool-task.js';
import { isPlainObject, type ToolContext, type ToolSpec } from './tools/types.js';

export interface DispatchOptions {
  backend: Backend;
  /** Runs this connection's tool calls in arrival order (see call-order.ts). */
  order?: CallOrder;
  confinement?: Confinement;
  capabilities: CapabilityProbe;
  log: (message: string) => void;
  /** The process's task store; set on 2026-07-28 instances, where renders become tasks for declaring clients. */
  tasks?: TaskStore;
}

// JSON Schemas are derived once per tool spec, not per server instance (factories must stay cheap).
const schemaCache = new WeakMap<ToolSpec, Tool['inputSchema']>();

function inputSchema(spec: ToolSpec): Tool['inputSchema'] {
  let schema = schemaCache.get(spec);
  if (!schema) {
    const { $schema: _ignored, ...json } = z.toJSONSchema(spec.input, { unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    schema = { ...json, type: 'object' } as Tool['inputSchema'];
    schemaCache.set(spec, schema);
  }
  return schema;
}

/**
 * The `tools/list` entries of a table. `showsApps` is whether the client can show MCP Apps (undefined: not
 * known); app-only tools are left out for clients that said they cannot (see player/apps.ts).
 */
export function listTools(table: readonly ToolSpec[], showsApps?: boolean): Tool[] {
  return table
    .filter((spec) => listedFor(spec, showsApps))
    .map((spec) => {
      const meta = toolUiMeta(spec);
      return {
        name: spec.name,
        title: spec.title,
        description: spec.description,
        inputSchema: inputSchema(spec),
        annotations: { title: spec.title, ...spec.hints },
        ...(meta && { _meta: meta }),
      };
    });
}

/** Checks a tools/call's arguments: throws ProtocolError for protocol-level faults, else parsed args or an error result. */
export function checkArguments(
  spec: ToolSpec,
  raw: unknown,
): { ok: true; args: Record<string, unknown> } | { ok: false; result: CallToolResult } {
  if (raw !== undefined && raw !== null && !isPlainObject(raw)) throw argumentsNotObject(spec.name);
  const given = (raw ?? {}) as Record<string, unknown>;
  const accepted = Object.keys(spec.input.shape);
  const unknown = Object.keys(given).filter((k) => !accepted.includes(k));
  if (unknown.length) throw unknownArguments(spec.name, unknown, accepted);
  const parsed = spec.input.safeParse(given);
  if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
  // Wrong types and missing values are tool errors (isError) so a model can read them and retry: the first
  // problem, named by its argument, as the commands' own parameter errors read.
  const issue = parsed.error.issues[0];
  const name = issue?.path.length ? issue.path.join('.') : '(arguments)';
  const missing = issue?.code === 'invalid_type' && issue.message.includes('undefined');
  return {
    ok: false,
    result: errorResult({
      code: 'bad_argument',
      message: missing
        ? `Missing required argument "${name}" for ${spec.name}.`
        : `Invalid argument "${name}" for ${spec.name}: ${issue?.message ?? 'invalid value'}.`,
      remediation: `Fix "${name}" to match the inputSchema of ${spec.name} in tools/list.`,
    }),
  };
}

/** Handles one tools/call. Never throws for tool failures; only for protocol errors. */
export async function callTool(
  table: ReadonlyMap<string, ToolSpec>,
  request: { params: { name: string; arguments?: unknown } },
  reqCtx: ServerContext,
  options: DispatchOptions,
): Promise<CallToolResult> {
  const { name } = request.params;
  const spec = table.get(name);
  // The tools a model may call: those only the player's view calls are kept from it, in errors too.
  if (!spec)
    throw unknownTool(
      name,
      [...table.values()].filter((t) => !isAppOnly(t)).map((t) => t.name),
    );
  const checked = checkArguments(spec, request.params.arguments);
  if (!checked.ok) return checked.result;
  // A render for a client that declared the tasks extension answers at once with a task (see tasks/).
  const task = startAsTask(spec, checked.args, reqCtx, options);
  if (task) return task;

  // Progress and cancellation are for blocking headless calls only; bridge calls stay polling.
  const streams = spec.longRunning === true && options.backend.kind === 'headless';
  const cancellable = (streams || spec.cancellable === true) && options.backend.kind === 'headless';
  const token = reqCtx.mcpReq._meta?.progressToken;
  const signal = cancellable ? reqCtx.mcpReq.signal : new AbortController().signal;
  const reporter =
    streams && (typeof token === 'string' || typeof token === 'number')
      ? createProgressReporter({
          token,
          signal,
          send: (params) => {
            reqCtx.mcpReq
              .notify({ method: 'notifications/progress', params: { ...params } })
              .catch((err: unknown) => options.log(`progress notification failed: ${String(err)}`));
          },
        })
      : undefined;
  const release = (await options.order?.enter()) ?? (() => undefined);
  if (reqCtx.mcpReq.signal.aborted) {
    // Cancelled while waiting its turn: it never runs (the SDK sends no response for a cancelled request).
    release();
    reporter?.stop();
    return errorResult({
      code: 'cancelled',
      message: `${name} was cancelled before it started.`,
      remediation: 'Call it again if you still need it.',
    });
  }
  const ctx: ToolContext = {
    release,
    backend: options.backend,
    confinement: options.confinement,
    capabilities: options.capabilities,
    signal,
    onProgress: reporter ? (info) => reporter.report(info) : undefined,
    log: options.log,
  };
  const started = performance.now();
  try {
    return toCallToolResult(await spec.run(checked.args, ctx));
  } catch (err) {
    return unexpectedFailure(name, err, options.log);
  } finally {
    release();
    reporter?.stop();
    // The client gets no reply to a cancelled request, so the person reading the log is told what happened.
    if (streams && reqCtx.mcpReq.signal.aborted)
      options.log(abandoned(name, checked.args, (performance.now() - started) / 1000));
  }
}

/** Set once the server is stopping (a signal): calls cut short then were not cancelled by their client. */
let stopping: string | null = null;

/** Marks the server as stopping because of `why` ("SIGTERM"), for the log lines of the calls it cuts short. */
export function markStopping(why: string): void {
  stopping ??= why;
}

/**
 * The log line for a long call the client cancelled while it ran: often its own request timeout (60 s by
 * default in the official SDK) rather than a person, so it says how to run a long render without one.
 */
function abandoned(tool: string, args: unknown, seconds: number): string {
  const id = (args as { id?: unknown } | null)?.id;
  const what = typeof id === 'string' ? `${tool} ${id}` : tool;
  if (stopping)
    return `${what} was stopped after ${seconds.toFixed(1)} s: the server is stopping (${stopping}); a render stops and removes the files it had not finished.`;
  return (
    `${what} was cancelled by the client after ${seconds.toFixed(1)} s (notifications/cancelled, or over HTTP its ` +
    "response stream closed; a client's request timeout does the same): a render stops and removes the files it " +
    'had not finished. For long renders send ' +
    '_meta.progressToken (clients that reset their timeout on progress keep waiting), or pass wait: false and ' +
    'poll renderQueue.list.'
  );
}
