/**
 * doc_inspect's pages: a model reads the whole result into its context, and a composition of 1,000 layers is
 * about 325 KB of JSON. The detailed composition's layers are cut to a byte budget, whole layers and at least
 * one; a cut result says which layers it holds and where the next page starts. A document that fits is whole.
 * The project's footage list is cut the same way, on its own budget and offset: each item carries its probed
 * media (about 440 bytes for a video with sound), so 400 imported clips alone are 176 KB.
 */

/** The most a doc_inspect result may weigh, as JSON text, when its layers can be cut. */
export const DOC_PAGE_LIMIT_BYTES = 32 * 1024;
/** The most the footage list may weigh before it is cut: half the page, so layers keep room beside it. */
export const FOOTAGE_PAGE_BYTES = 16 * 1024;
// Room for the page's own fields (layersPage, footagePage, the note).
const ENVELOPE_BYTES = 768;

interface Detailed {
  layers: unknown[];
  [key: string]: unknown;
}

interface Page {
  offset: number;
  count: number;
  total: number;
  next_offset?: number;
}

/** Whole items of `all` from `offset` within `budget` bytes of JSON (at least one), and the page they make. */
function takePage(all: unknown[], offset: number, budget: number): { items: unknown[]; page: Page } {
  const items: unknown[] = [];
  let used = 0;
  for (const item of all.slice(offset)) {
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (items.length && used + size > budget) break;
    items.push(item);
    used += size;
  }
  const next = offset + items.length;
  const page: Page = { offset, count: items.length, total: all.length };
  if (next < all.length) page.next_offset = next;
  return { items, page };
}

/** The project's footage from `footageOffset`, cut to FOOTAGE_PAGE_BYTES when the whole list weighs more. */
function footagePage(doc: Record<string, unknown>, footageOffset: number) {
  const project = doc.project as { footage?: unknown } | undefined;
  const all = project?.footage;
  if (!Array.isArray(all)) return { doc };
  if (footageOffset === 0 && Buffer.byteLength(JSON.stringify(all)) <= FOOTAGE_PAGE_BYTES) return { doc };
  const { items, page } = takePage(all, footageOffset, FOOTAGE_PAGE_BYTES);
  return { doc: { ...doc, project: { ...project, footage: items } }, page };
}

/**
 * `doc` (project.inspect's result, plus confinement) with its detailed composition's layers from `offset` and
 * the project's footage from `footageOffset`.
 */
export function docPage(
  doc: Record<string, unknown>,
  offset: number,
  footageOffset = 0,
): Record<string, unknown> {
  if (offset === 0 && footageOffset === 0 && Buffer.byteLength(JSON.stringify(doc)) <= DOC_PAGE_LIMIT_BYTES)
    return doc;
  const footage = footagePage(doc, footageOffset);
  const notes: string[] = [];
  const fp = footage.page;
  if (fp?.next_offset !== undefined)
    notes.push(
      `Footage items ${fp.offset + 1}-${fp.next_offset} of ${fp.total} (the project's footage list is cut to ${FOOTAGE_PAGE_BYTES / 1024} KB): call doc_inspect again with footage_offset: ${fp.next_offset} for the next ones.`,
    );
  let out: Record<string, unknown> = { ...footage.doc, ...(fp && { footagePage: fp }) };
  const key = 'composition' in doc ? 'composition' : 'activeComposition';
  const detailed = doc[key] as Detailed | null | undefined;
  if (detailed && (offset > 0 || Buffer.byteLength(JSON.stringify(out)) > DOC_PAGE_LIMIT_BYTES)) {
    const rest = { ...out, [key]: { ...detailed, layers: [] } };
    const used = Buffer.byteLength(JSON.stringify(rest)) + ENVELOPE_BYTES;
    const { items, page } = takePage(detailed.layers, offset, DOC_PAGE_LIMIT_BYTES - used);
    out = { ...out, [key]: { ...detailed, layers: items }, layersPage: page };
    if (page.next_offset !== undefined)
      notes.unshift(
        `Cut to stay under ${DOC_PAGE_LIMIT_BYTES / 1024} KB: layers ${offset + 1}-${page.next_offset} of ${page.total} (top to bottom). Call doc_inspect again with offset: ${page.next_offset} for the next ones; project.inspect {allLayers: true} lists every layer's id, name and kind.`,
      );
  }
  return notes.length ? { ...out, note: notes.join(' ') } : out;
}
