/** Finding compositions, layers, footage and effects by id, or by name when the name is unique. */
import type { Draft } from 'immer';
import type { DocPath } from './catalog.js';
import { EngineError, type Remedy } from './errors.js';
import {
  isComposition,
  type Composition,
  type Effect,
  type FootageItem,
  type Layer,
  type Project,
} from './model.js';

type Named = { id: string; name: string };

function byRef<T extends Named>(list: readonly T[], ref: string, what: string, remedy: Remedy): T {
  const byId = list.find((x) => x.id === ref);
  if (byId) return byId;
  const named = list.filter((x) => x.name === ref);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    throw new EngineError(
      'ambiguous_name',
      `${named.length} ${what}s are named "${ref}": ${named.map((x) => x.id).join(', ')}.`,
      `Pass the id of the ${what} you mean instead of its name.`,
    );
  }
  const candidates = list.slice(0, 20).map((x) => `${x.id} ("${x.name}")`);
  throw new EngineError(
    'not_found',
    `No ${what} "${ref}".${candidates.length ? ` Available: ${candidates.join(', ')}.` : ` There are no ${what}s.`}`,
    remedy,
  );
}

export function compositions(doc: Project): Composition[] {
  return doc.items.filter(isComposition);
}

/** Resolves `ref` (id or unique name), or the active composition when `ref` is undefined. */
export function findComp(doc: Project, ref: string | undefined): Composition {
  if (ref === undefined) {
    if (doc.activeComp === null) {
      throw new EngineError(
        'not_found',
        'There is no active composition.',
        'Create one with comp.new or pass "comp".',
      );
    }
    ref = doc.activeComp;
  }
  return byRef(
    compositions(doc),
    ref,
    'composition',
    (w) => `Pass a composition id or name; ${w.inspect} lists them.`,
  );
}

export function findLayer(comp: Composition, ref: string): Layer {
  return byRef(
    comp.layers,
    ref,
    'layer',
    (w) => `Pass a layer id or name of composition "${comp.name}"; ${w.inspect} lists them.`,
  );
}

export function findFootage(doc: Project, ref: string): FootageItem {
  const footage = doc.items.filter((i): i is FootageItem => i.type === 'footage');
  return byRef(footage, ref, 'footage item', 'Import the file first with file.import, then pass its id.');
}

export function findEffect(layer: Layer, ref: string): Effect {
  const effects = layer.effects.map((e) => ({ ...e, name: e.type }));
  const found = byRef(
    effects,
    ref,
    'effect',
    (w) => `Pass an effect id of layer "${layer.name}"; ${w.inspect} lists them.`,
  );
  return layer.effects.find((e) => e.id === found.id)!;
}

/** The draft composition with the given id (already resolved against the immutable document). */
export function draftComp(draft: Draft<Project>, id: string): Draft<Composition> {
  const comp = draft.items.find((i) => i.id === id);
  if (!comp || comp.type !== 'composition') throw new Error(`composition ${id} vanished from the draft`);
  return comp;
}

export function draftLayer(draft: Draft<Project>, compId: string, layerId: string): Draft<Layer> {
  const layer = draftComp(draft, compId).layers.find((l) => l.id === layerId);
  if (!layer) throw new Error(`layer ${layerId} vanished from the draft`);
  return layer;
}

/** Where a composition's layer list is in the document, for ctx.insert and ctx.remove. */
export function layersPath(doc: Project, compId: string): DocPath {
  const index = doc.items.findIndex((i) => i.id === compId);
  if (index < 0) throw new Error(`composition ${compId} is not in the document`);
  return ['items', index, 'layers'];
}

/** Where a layer is in the document. */
export function layerPath(doc: Project, compId: string, layerId: string): DocPath {
  const path = layersPath(doc, compId);
  const comp = doc.items[path[1] as number] as Composition;
  const index = comp.layers.findIndex((l) => l.id === layerId);
  if (index < 0) throw new Error(`layer ${layerId} is not in composition ${compId}`);
  return [...path, index];
}

/**
 * The ids a session has handed out, which an undo or a rolled-back batch does not take back: the document's
 * counter goes back with it, but an agent may still hold an id it was given (`layer_6` of a step it undid), and
 * the same id naming a new item would send its next edit to the wrong one. The engine keeps one per project.
 */
export interface IssuedIds {
  /** The lowest number not yet handed out. */
  next: number;
}

let issued: IssuedIds | null = null;

/** Runs `fn` (a synchronous recipe) with `ids` as the floor of every id newId allocates in it. */
export function withIssuedIds<T>(ids: IssuedIds, fn: () => T): T {
  const outer = issued;
  issued = ids;
  try {
    return fn();
  } finally {
    issued = outer;
  }
}

/** Allocates the next id with a readable prefix (`comp_3`, `layer_7`), never one this session handed out. */
export function newId(draft: Draft<Project>, prefix: string): string {
  const n = Math.max(draft.nextId, issued?.next ?? 0);
  draft.nextId = n + 1;
  if (issued) issued.next = n + 1;
  return `${prefix}_${n}`;
}

/** A name not yet used in the list: `Base`, `Base 2`, `Base 3`, … (the first free number). */
export function uniqueName(existing: readonly Named[], base: string): string {
  // One pass collecting the numbers in use: trying `Base 2`, `Base 3`, … against every name made adding the
  // n-th "Solid" cost n string builds.
  const prefix = `${base} `;
  const used = new Set<number>();
  let taken = false;
  for (const { name } of existing) {
    if (name === base) taken = true;
    else if (name.startsWith(prefix)) {
      const n = numberAt(name, prefix.length);
      if (n !== null) used.add(n);
    }
  }
  if (!taken) return base;
  for (let i = 2; ; i++) if (!used.has(i)) return `${base} ${i}`;
}

/** The number `name` spells from `start` to its end, written as `String(n)` would (no leading zeros), or null. */
function numberAt(name: string, start: number): number | null {
  const length = name.length - start;
  if (length < 1 || length > 15 || (length > 1 && name.charCodeAt(start) === 48)) return null;
  let n = 0;
  for (let i = start; i < name.length; i++) {
    const digit = name.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    n = n * 10 + digit;
  }
  return n;
}
