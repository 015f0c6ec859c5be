/**
 * A batch's results, kept small enough for a model to read: 1,500 steps of layer.addText answered 242 KB, and
 * the step limit (10,000) allows about 1.6 MB. Under the budget nothing changes. Over it, `results` lists the
 * steps the caller must act on, whole (failures, and steps with warnings), and `ids` gives every step's result
 * id by step index (what a later call needs; null for a step with none). If even the ids are over it (thousands
 * of steps), they are left out too. A note says which.
 */
import type { StepResult } from './batch-tools.js';

/** About what doc_inspect's pages hold. */
export const RESULTS_BUDGET = 32_768;

const idOf = (r: StepResult): string | null => {
  const id = r.ok ? (r.result as { id?: unknown } | null)?.id : undefined;
  return typeof id === 'string' ? id : null;
};

export function compactResults(results: StepResult[]): {
  results: StepResult[];
  ids?: Array<string | null>;
  note?: string;
} {
  const size = JSON.stringify(results).length;
  if (size <= RESULTS_BUDGET) return { results };
  const kept = results.filter((r) => !r.ok || r.warnings?.length);
  const left = results.length - kept.length;
  const ids = results.map(idOf);
  if (JSON.stringify(ids).length <= RESULTS_BUDGET)
    return {
      results: kept,
      ids,
      note: `The steps' results were ${size} characters of JSON: results lists only the failed steps and those with warnings (whole); ids gives each step's result id by step index. doc_inspect (or the command alone) gives the rest.`,
    };
  return {
    results: kept,
    note: `The steps' results were ${size} characters of JSON: the ${left} successful steps without warnings are left out (counted in completed), their ids too; results lists the failed steps and those with warnings (whole). doc_inspect gives the document they made.`,
  };
}
