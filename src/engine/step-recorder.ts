/**
 * The changes one command makes, as the immer patches of its undo step. An undo step costs memory in proportion
 * to its patches, so long arrays (a composition's layers, a property's keyframes) are inserted into and removed
 * from with one `add`/`remove` patch each (applied by splicing, see patches.ts), whereas a splice in a draft is
 * recorded as a replacement of every element after it.
 */
import { produceWithPatches, type Draft, type Patch } from 'immer';
import type { DocPath } from './catalog.js';
import type { Project } from './model.js';
import { applyChanges } from './patches.js';
import { withIssuedIds, type IssuedIds } from './resolve.js';

export class StepRecorder {
  /** The command's own document once it has changed something; until then it sees the live one. */
  #doc: Project | null = null;
  readonly #live: () => Project;
  readonly #ids: IssuedIds | undefined;
  readonly patches: Patch[] = [];
  readonly inverse: Patch[] = [];

  /** `ids`: the session's issued ids, the floor of the ids its recipes allocate (resolve.ts, newId). */
  constructor(live: () => Project, ids?: IssuedIds) {
    this.#live = live;
    this.#ids = ids;
  }

  get doc(): Project {
    return this.#doc ?? this.#live();
  }

  /** The document with this command's changes, or null when it changed nothing. */
  get changed(): Project | null {
    return this.patches.length ? this.#doc : null;
  }

  update(recipe: (draft: Draft<Project>) => void): void {
    // The wrapper drops whatever the recipe returns: recipes only mutate the draft.
    const ids = this.#ids;
    const [next, p, inv] = produceWithPatches(this.doc, (draft) => {
      if (ids) withIssuedIds(ids, () => recipe(draft));
      else recipe(draft);
    });
    this.#doc = next;
    this.patches.push(...p);
    this.inverse.unshift(...inv);
  }

  insert(path: DocPath, index: number, value: unknown): void {
    const list = this.#array(path);
    if (!Number.isInteger(index) || index < 0 || index > list.length)
      throw new Error(`insert: index ${index} is outside ${path.join('.')} (length ${list.length})`);
    const place = [...path, index];
    this.#apply({ op: 'add', path: place, value }, { op: 'remove', path: place });
  }

  remove(path: DocPath, index: number): void {
    const list = this.#array(path);
    if (!Number.isInteger(index) || index < 0 || index >= list.length)
      throw new Error(`remove: no element ${index} in ${path.join('.')} (length ${list.length})`);
    const place = [...path, index];
    this.#apply({ op: 'remove', path: place }, { op: 'add', path: place, value: list[index] as unknown });
  }

  /** Forgets the changes (the command replaced the whole project, which has no undo). */
  reset(): void {
    this.#doc = null;
    this.patches.length = 0;
    this.inverse.length = 0;
  }

  #array(path: DocPath): readonly unknown[] {
    const list = at(this.doc, path);
    if (!Array.isArray(list)) throw new Error(`${path.join('.')} is not an array`);
    return list;
  }

  #apply(patch: Patch, inverse: Patch): void {
    this.#doc = applyChanges(this.doc, [patch]);
    this.patches.push(patch);
    this.inverse.unshift(inverse);
  }
}

function at(root: unknown, path: DocPath): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}
