/**
 * Many commands in one call. `command_batch`: each step is its own undo step, stops at the first failure
 * unless stop_on_error is false. `batch` (older): the whole batch is one undo step, rolled back when a step
 * fails. In both, step params may reference earlier results ("$N", "$N.field"): an import then a layer of it
 * (`{"footage": "$0.id"}`) is one call, as agents write it (command_batch refused "$0.id" as an unknown id).
 */
import { z } from 'zod';
import type { ErrorInfo } from '../../engine/index.js';
import { FAILED_STEP, resolveRefs } from './refs.js';
import type { GroupSteps } from '../backend.js';
import { COMMAND_TOOL, defineTool } from './types.js';
import { compactResults } from './batch-compact.js';

const MAX_STEPS = 10_000;

const step = z.strictObject({
  id: z.string().min(1).describe('Command id.'),
  params: z.record(z.string(), z.unknown()).optional().describe("The command's params."),
});

export type StepResult =
  | { index: number; id: string; ok: true; result: unknown; warnings?: string[]; rolled_back?: true }
  | { index: number; id: string; ok: false; error: ErrorInfo };

async function runStep(
  run: Pick<GroupSteps, 'execute'>,
  index: number,
  id: string,
  params: unknown,
): Promise<StepResult> {
  const r = await run.execute(id, params ?? {});
  if (!r.ok) return { index, id, ok: false, error: r.error };
  return r.warnings?.length
    ? { index, id, ok: true, result: r.result, warnings: r.warnings }
    : { index, id, ok: true, result: r.result };
}

export const commandBatch = defineTool({
  name: 'command_batch',
  title: 'Run Command Batch',
  description:
    'Runs engine commands in order; each edit is its own undo step. Stops at the first failure unless stop_on_error is false. Step params may reference earlier results: "$N" (result of step N, 0-based) or "$N.field" (file.import then layer.addFootage {"footage": "$0.id"}). Returns {completed, failed, skipped, results}; any failed step makes the result an error. Over 32 KB of results, results lists only failed steps and steps with warnings, ids gives every step\'s result id by index, with a note.',
  hints: COMMAND_TOOL,
  input: z.strictObject({
    steps: z.array(step).min(1).max(MAX_STEPS).describe('Commands to run, in order.'),
    stop_on_error: z.boolean().optional().describe('Stop at the first failing step (default true).'),
  }),
  async run(args, ctx) {
    const stopOnError = args.stop_on_error ?? true;
    const results: StepResult[] = [];
    const values: unknown[] = [];
    const confined = ctx.confinement?.info.confined ?? false;
    let failed = 0;
    for (const [index, s] of args.steps.entries()) {
      const r = await referencedStep(ctx.backend, index, s, values, confined);
      results.push(r);
      values.push(r.ok ? r.result : FAILED_STEP);
      if (!r.ok) {
        failed++;
        if (stopOnError) break;
      }
    }
    const completed = results.length - failed;
    return {
      kind: 'json',
      value: { completed, failed, skipped: args.steps.length - results.length, ...compactResults(results) },
    };
  },
});

export const batch = defineTool({
  name: 'batch',
  title: 'Run Atomic Batch (older)',
  description:
    'Older batch tool, kept for existing workflows: runs the steps as ONE undo step and rolls the document back if any step fails. Step params may reference earlier results: "$N" (result of step N, 0-based) or "$N.field".',
  hints: COMMAND_TOOL,
  input: z.strictObject({
    steps: z.array(step).min(1).max(MAX_STEPS).describe('Commands to run, in order.'),
  }),
  async run(args, ctx) {
    const results: StepResult[] = [];
    const values: unknown[] = [];
    const confined = ctx.confinement?.info.confined ?? false;
    const run = await ctx.backend.group('Batch', async (steps) => {
      for (const [index, s] of args.steps.entries()) {
        const r = await referencedStep(steps, index, s, values, confined);
        results.push(r);
        values.push(r.ok ? r.result : FAILED_STEP);
        if (!r.ok) return false;
      }
      return true;
    });
    // It never began (another caller's group held the edit order too long): nothing ran, nothing changed.
    if (!run.ok) return { kind: 'error', error: run.error };
    const ok = run.committed;
    const failed = results.filter((r) => !r.ok).length;
    return {
      kind: 'json',
      value: {
        completed: ok ? results.length : 0,
        failed,
        skipped: args.steps.length - results.length,
        rolled_back: !ok,
        // A step that ran before the failure was undone with the rest: its ids name nothing now (and the next
        // batch may reuse them), so it says so rather than a bare ok.
        ...compactResults(
          ok ? results : results.map((r) => (r.ok ? { ...r, rolled_back: true as const } : r)),
        ),
      },
    };
  },
});

/** Runs step `index` with its references to earlier results (`values`) filled in, or fails it naming the reference. */
async function referencedStep(
  run: Pick<GroupSteps, 'execute'>,
  index: number,
  s: { id: string; params?: Record<string, unknown> | undefined },
  values: readonly unknown[],
  confined: boolean,
): Promise<StepResult> {
  const resolved = resolveRefs(s.params ?? {}, values, index);
  if (!resolved.ok) return { index, id: s.id, ok: false, error: resolved.error };
  // Security: a path computed from an earlier result cannot be vetted by the caller before the call, so while
  // confined references may not supply paths at all.
  if (confined && resolved.refs.some((r) => r.startsWith('/')))
    return { index, id: s.id, ok: false, error: refusedPathRef(index) };
  return runStep(run, index, s.id, resolved.value);
}

function refusedPathRef(index: number): ErrorInfo {
  return {
    code: 'refused_while_confined',
    message: `Step ${index} takes an absolute path from a result reference, which is refused while confined, whatever the parameter (a path could name a file outside the roots unseen).`,
    remediation:
      'Write the path literally in the step: it is then checked against the read and write roots (capabilities lists them).',
  };
}
