/**
 * Text the bundled fonts cannot draw, in an item's composition and its precomps (nested ones included): such
 * characters render as boxes. The renderer warns of them frame by frame, but those warnings stay in the render
 * workers, so an item (a `--data` row whose name is "山田", a template prop, a hand-edited project) ended `done`
 * with boxes in every frame and not a word. The item's result says so now, as `render_preview` does.
 * `doc` is the item's own copy, with its props applied: a prop's text is what is checked.
 */
import type { Project } from '../../engine/index.js';
import { missingGlyphsMessage } from '../../engine/core.js';
import { uncoveredCharacters } from '../font-list.js';

/** One warning per enabled text layer whose text the bundled fonts cannot fully draw (at most `max`). */
export function missingGlyphsWarnings(doc: Project, compId: string, max = 10): string[] {
  const byId = new Map(doc.items.map((i) => [i.id, i]));
  const seen = new Set<string>();
  const out: string[] = [];
  const visit = (id: string) => {
    const comp = byId.get(id);
    if (seen.has(id) || comp?.type !== 'composition') return;
    seen.add(id);
    for (const layer of comp.layers) {
      if (out.length >= max || !layer.enabled) continue;
      const src = layer.source;
      if (src.kind === 'precomp') visit(src.comp);
      if (src.kind !== 'text') continue;
      const missing = uncoveredCharacters(src.text);
      if (missing.length)
        out.push(`Text layer "${layer.name}" of "${comp.name}": ${missingGlyphsMessage(missing)}`);
    }
  };
  visit(compId);
  return out;
}
