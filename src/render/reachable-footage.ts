/**
 * The footage a composition draws, following nested compositions: the one walker behind what renders read
 * (the footage cache), what commands declare they read (confinement checks them before anything draws), and
 * what the render queue hands its workers. Pure: no Skia, so declarations stay cheap to compute.
 */
import type { FootageItem, Project } from '../engine/index.js';

/** Every footage item reachable from `compIds` (through precomps), each once, in first-seen order. */
export function reachableFootage(doc: Project, compIds: readonly string[]): FootageItem[] {
  const byId = new Map(doc.items.map((i) => [i.id, i]));
  const seen = new Set<string>();
  const found = new Map<string, FootageItem>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const item = byId.get(id);
    if (item?.type === 'footage') found.set(item.id, item);
    if (item?.type !== 'composition') return;
    for (const layer of item.layers) {
      if (layer.source.kind === 'footage') visit(layer.source.footage);
      if (layer.source.kind === 'precomp') visit(layer.source.comp);
    }
  };
  compIds.forEach(visit);
  return [...found.values()];
}

/**
 * Absolute paths of the footage reachable from `compIds`, each once. `sound: false` leaves out files that are
 * sound alone: frames never read them, nor does a render without sound (a confined session may then draw a
 * composition whose music lies outside its roots).
 */
export function footagePaths(
  doc: Project,
  compIds: readonly string[],
  { sound = true }: { sound?: boolean } = {},
): string[] {
  const items = reachableFootage(doc, compIds).filter((item) => sound || item.media?.kind !== 'audio');
  return [...new Set(items.map((item) => item.path))];
}
