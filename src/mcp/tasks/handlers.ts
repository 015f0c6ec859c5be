/**
 * The tasks methods of the 2026-07-28 tasks extension (tasks/get, tasks/update, tasks/cancel), registered on
 * a modern-era server instance. SDK 2.4.0 has no tasks runtime, so these are ours. tasks/result and tasks/list
 * were removed by the extension: the SDK answers them -32601 on the 2026-07-28 era, as it should.
 */
import { z } from 'zod';
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
  type Server,
} from '@modelcontextprotocol/server';
import { TASKS_EXTENSION, type TaskStore } from './store.js';

const TaskIdParams = z.object({ taskId: z.string().min(1) });
// Our tasks never ask for input (no input_required), so every inputResponses key is "not outstanding" and ignored.
const UpdateParams = TaskIdParams.extend({ inputResponses: z.record(z.string(), z.unknown()).optional() });

/** Whether this request declared the tasks extension in its per-request client capabilities. */
export function declaresTasks(ctx: ServerContext): boolean {
  // The SDK types the envelope as {}; it holds the request's reserved _meta keys (validated by the SDK).
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as
    { extensions?: Record<string, unknown> } | undefined;
  const extensions = declared?.extensions;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}

/** Advertises the extension and installs its methods on one (modern-era) server instance. */
export function registerTaskMethods(server: Server, store: TaskStore): void {
  server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, (params, ctx) => {
    requireDeclared('tasks/get', ctx);
    const task = store.get(params.taskId);
    if (!task) throw unknownTask('tasks/get', params.taskId, store);
    return { ...task };
  });
  server.setRequestHandler('tasks/update', { params: UpdateParams }, (params, ctx) => {
    requireDeclared('tasks/update', ctx);
    if (!store.get(params.taskId)) throw unknownTask('tasks/update', params.taskId, store);
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) => {
    requireDeclared('tasks/cancel', ctx);
    if (!(await store.cancel(params.taskId))) throw unknownTask('tasks/cancel', params.taskId, store);
    return {};
  });
}

/** -32021 naming the extension to declare (SEP-2575 Missing Required Client Capability). */
function requireDeclared(method: string, ctx: ServerContext): void {
  if (declaresTasks(ctx)) return;
  throw new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${method} needs the tasks extension: declare "${TASKS_EXTENSION}": {} under extensions in this request's _meta "${CLIENT_CAPABILITIES_META_KEY}".`,
  );
}

/** -32602 for a task id this server does not hold (never created, or dropped after its time to live). */
function unknownTask(method: string, taskId: string, store: TaskStore): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `${method}: no task "${taskId}". Tasks are kept ${store.ttlMs / 60_000} minutes after their last change; start the render again with command_run (renderQueue.render) to get a new task.`,
    { taskId },
  );
}
