/** The footage files a composition needs, following nested compositions. */
import type { Project } from '../../engine/index.js';

/** Absolute paths of every footage item reachable from `compIds` (through precomps), each once. */
export function footagePaths(doc: Project, compIds: readonly string[]): string[] {
  const byId = new Map(doc.items.map((i) => [i.id, i]));
  const seen = new Set<string>();
  const paths = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const item = byId.get(id);
    if (item?.type === 'footage') paths.add(item.path);
    if (item?.type !== 'composition') return;
    for (const layer of item.layers) {
      if (layer.source.kind === 'footage') visit(layer.source.footage);
      if (layer.source.kind === 'precomp') visit(layer.source.comp);
    }
  };
  compIds.forEach(visit);
  return [...paths];
}
