/**
 * doc_inspect's pages: a model reads the whole result into its context, and a composition of 1,000 layers is
 * about 325 KB of JSON. The detailed composition's layers are cut to a byte budget, whole layers and at least
 * one; a cut result says which layers it holds and where the next page starts. A document that fits is whole.
 */

/** The most a doc_inspect result may weigh, as JSON text, when its layers can be cut. */
export const DOC_PAGE_LIMIT_BYTES = 32 * 1024;
// Room for the page's own fields (layersPage, the note).
const ENVELOPE_BYTES = 512;

interface Detailed {
  layers: unknown[];
  [key: string]: unknown;
}

/** `doc` (project.inspect's result, plus confinement) with its detailed composition's layers from `offset`. */
export function docPage(doc: Record<string, unknown>, offset: number): Record<string, unknown> {
  const key = 'composition' in doc ? 'composition' : 'activeComposition';
  const detailed = doc[key] as Detailed | null | undefined;
  if (!detailed) return doc;
  const all = detailed.layers;
  if (offset === 0 && Buffer.byteLength(JSON.stringify(doc)) <= DOC_PAGE_LIMIT_BYTES) return doc;
  const rest = { ...doc, [key]: { ...detailed, layers: [] } };
  let used = Buffer.byteLength(JSON.stringify(rest)) + ENVELOPE_BYTES;
  const layers: unknown[] = [];
  for (const layer of all.slice(offset)) {
    const size = Buffer.byteLength(JSON.stringify(layer)) + 1;
    if (layers.length && used + size > DOC_PAGE_LIMIT_BYTES) break;
    layers.push(layer);
    used += size;
  }
  const next = offset + layers.length;
  const page: Record<string, unknown> = { offset, count: layers.length, total: all.length };
  if (next < all.length) page.next_offset = next;
  return {
    ...doc,
    [key]: { ...detailed, layers },
    layersPage: page,
    ...(next < all.length && {
      note: `Cut to stay under ${DOC_PAGE_LIMIT_BYTES / 1024} KB: layers ${offset + 1}-${next} of ${all.length} (top to bottom). Call doc_inspect again with offset: ${next} for the next ones; project.inspect {allLayers: true} lists every layer's id, name and kind.`,
    }),
  };
}
