/**
 * Values the command line gives several items at once (--props, a --data row) go to each item whose composition
 * has an input of that name: a queue of a lower third (inputs name, accent) and a social clip (name, clip) renders
 * from one row `name,accent,clip`, as docs/templates.md promises. Until 2026-12-07 every value went to every item,
 * so each item refused the other's input ("Social" has no input "accent") and every row of such a batch failed.
 * A name that no composition rendered knows stays in, so the queue's commands refuse it by name (a misspelt key).
 */
import type { Project, RenderQueueItem } from '../engine/model.js';
import { inputsOf } from '../engine/template-inputs.js';

/** The input names of the compositions `items` render. */
export function inputNames(doc: Project, items: readonly RenderQueueItem[]): Set<string> {
  const names = new Set<string>();
  for (const item of items) {
    const comp = doc.items.find((i) => i.id === item.comp);
    if (comp?.type === 'composition') for (const input of inputsOf(comp)) names.add(input.name);
  }
  return names;
}

/**
 * `values` without the names that are `known` to the batch (another composition's input, an output's {field})
 * but no input of `compId`'s composition: those are meant for the other items.
 */
export function propsForComp(
  doc: Project,
  compId: string,
  values: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
): Record<string, unknown> {
  const comp = doc.items.find((i) => i.id === compId);
  const own = new Set(comp?.type === 'composition' ? inputsOf(comp).map((i) => i.name) : []);
  return Object.fromEntries(Object.entries(values).filter(([k]) => own.has(k) || !known.has(k)));
}
