/**
 * command_list's pages: a model reads the whole result into its context, and the full catalog with schemas
 * is about 60 KB. A page holds whole commands up to a byte budget; a cut page says where the next one starts.
 */
import type { CatalogEntry } from '../../engine/index.js';

/** The most a command_list result may weigh, as JSON text (what the client puts in the model's context). */
export const PAGE_LIMIT_BYTES = 16 * 1024;
// Room for the result's other fields (count, total, offsets, the note).
const ENVELOPE_BYTES = 512;

export interface CatalogPage {
  /** Commands on this page. */
  count: number;
  /** Commands that match the arguments, on every page. */
  total: number;
  offset: number;
  commands: CatalogEntry[];
  /** Where the next page starts; absent on the last page. */
  next_offset?: number;
  note?: string;
  /** Ids asked for (`ids`) that no command has: a typo, or a command of a later version. */
  unknown_ids?: string[];
}

/**
 * The page of `matching` that starts at `offset`: whole commands while the result stays under the limit, and
 * at least one, so a command bigger than a page is still listed (alone).
 */
export function catalogPage(matching: CatalogEntry[], offset: number): CatalogPage {
  const budget = PAGE_LIMIT_BYTES - ENVELOPE_BYTES;
  const commands: CatalogEntry[] = [];
  let used = 0;
  for (const entry of matching.slice(offset)) {
    // The comma between entries included; JSON text is UTF-8 on the wire.
    const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (commands.length && used + size > budget) break;
    commands.push(entry);
    used += size;
  }
  const page: CatalogPage = { count: commands.length, total: matching.length, offset, commands };
  const next = offset + commands.length;
  if (next < matching.length) {
    page.next_offset = next;
    page.note = `Cut to stay under ${PAGE_LIMIT_BYTES / 1024} KB: commands ${offset + 1}-${next} of ${matching.length}. Call command_list again with the same arguments and offset: ${next} for the rest, or narrow it with category, filter or ids.`;
  }
  return page;
}
