/** Finding compositions, layers, footage and effects by id, or by name when the name is unique. */
import type { Draft } from 'immer';
import { EngineError } from './errors.js';
import {
  isComposition,
  type Composition,
  type Effect,
  type FootageItem,
  type Layer,
  type Project,
} from './model.js';

type Named = { id: string; name: string };

function byRef<T extends Named>(list: readonly T[], ref: string, what: string, remedy: string): T {
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
    'Pass a composition id or name; doc_inspect lists them.',
  );
}

export function findLayer(comp: Composition, ref: string): Layer {
  return byRef(
    comp.layers,
    ref,
    'layer',
    `Pass a layer id or name of composition "${comp.name}"; doc_inspect lists them.`,
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
    `Pass an effect id of layer "${layer.name}"; doc_inspect lists them.`,
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

/** Allocates the next id with a readable prefix (`comp_3`, `layer_7`). */
export function newId(draft: Draft<Project>, prefix: string): string {
  const id = `${prefix}_${draft.nextId}`;
  draft.nextId += 1;
  return id;
}

/** A name not yet used in the list: `Base`, `Base 2`, `Base 3`, … */
export function uniqueName(existing: readonly Named[], base: string): string {
  const names = new Set(existing.map((x) => x.name));
  if (!names.has(base)) return base;
  for (let i = 2; ; i++) if (!names.has(`${base} ${i}`)) return `${base} ${i}`;
}
