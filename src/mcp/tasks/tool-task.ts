/**
 * A tool call answered with a task: the tool runs in the background under the task's stop signal, its
 * progress becomes the task's statusMessage, and its CallToolResult (the same one a blocking call returns)
 * is kept for tasks/get. Progress notifications are not sent for a task: statusMessage replaces them.
 */
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { ProgressInfo } from '../../engine/index.js';
import type { DispatchOptions } from '../dispatch.js';
import { toCallToolResult, unexpectedFailure } from '../results.js';
import type { ToolContext, ToolSpec } from '../tools/types.js';
import { declaresTasks } from './handlers.js';
import type { TaskStore, TaskWire } from './store.js';

/** How a tool call reads as a task (see ToolSpec.asTask). */
export interface TaskPlan {
  /** Names the work in the server log, e.g. "command_run renderQueue.render". */
  label: string;
  /** The statusMessage before the first progress. */
  starting: string;
  /** The statusMessage for one progress update. */
  status(info: ProgressInfo): string;
  /** Whether a result returned after tasks/cancel shows the work had run to its end (see TaskStore.start). */
  ranToEnd?(result: CallToolResult): boolean;
}

/** The CreateTaskResult of tools/call: the task, flat, with resultType "task". */
export type CreateTaskResult = TaskWire & { resultType: 'task' };

/**
 * The answer to a tools/call that runs as a task, or null when it does not: no store (a 2025-era instance), the
 * request did not declare the extension, or the tool says this call is not one (not a render).
 */
export function startAsTask(
  spec: ToolSpec,
  args: Record<string, unknown>,
  reqCtx: ServerContext,
  options: DispatchOptions,
): Promise<CallToolResult> | null {
  const { tasks } = options;
  const plan = tasks && declaresTasks(reqCtx) ? spec.asTask?.(args, options.backend) : null;
  if (!plan || !tasks) return null;
  // tools/call's handler type is CallToolResult; on 2026-07-28 the SDK passes resultType "task" through.
  return startToolTask(spec, args, plan, tasks, options) as Promise<unknown> as Promise<CallToolResult>;
}

/**
 * Starts `spec` as a task and answers as soon as the task is in the store. The call waits its turn in the
 * connection's call order like any call; the tool releases that order once its snapshot is taken.
 */
export async function startToolTask(
  spec: ToolSpec,
  args: Record<string, unknown>,
  plan: TaskPlan,
  tasks: TaskStore,
  options: DispatchOptions,
): Promise<CreateTaskResult> {
  const release = (await options.order?.enter()) ?? (() => undefined);
  const task = tasks.start(
    plan.label,
    plan.starting,
    async (control) => {
      const ctx: ToolContext = {
        release,
        backend: options.backend,
        confinement: options.confinement,
        capabilities: options.capabilities,
        signal: control.signal,
        onProgress: (info) => control.status(plan.status(info)),
        log: options.log,
      };
      try {
        return toCallToolResult(await spec.run(args, ctx));
      } catch (err) {
        return unexpectedFailure(spec.name, err, options.log);
      } finally {
        release();
      }
    },
    plan.ranToEnd,
  );
  return { resultType: 'task', ...task };
}
