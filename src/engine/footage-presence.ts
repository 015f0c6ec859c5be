/**
 * Footage whose file is not there: what project.open reports and project.inspect marks, so an agent or a
 * pipeline learns it from the document's view rather than at the first preview (a placeholder) or render
 * (no_such_file). Looked up through the engine's ports, so a path the roots do not allow is never told about.
 * An image sequence is looked at frame by frame: one file gone from the middle fails a render as surely as the
 * first (its frames are `missingFrames`, the item itself is there).
 */
import { sequenceFrame } from './image-sequence.js';
import type { FootageItem, Project } from './model.js';

export interface MissingFootage {
  id: string;
  name: string;
  path: string;
  /** A sequence with some frames there: the numbers of its frames that are not (at most MAX_LISTED). */
  missingFrames?: { count: number; first: number[] };
}

/** Frame numbers a report lists (the count says how many in all). */
const MAX_LISTED = 20;
/** Files looked at together: a sequence of thousands is checked without thousands of calls in flight. */
const BATCH = 64;

type Exists = (path: string) => Promise<boolean>;

/** `frames: false` looks at each item's own file only (a sequence's first): the studio's poll every 3 s. */
export async function missingFootage(
  doc: Project,
  exists: Exists,
  { frames = true }: { frames?: boolean } = {},
): Promise<MissingFootage[]> {
  const missing: MissingFootage[] = [];
  const there = (path: string) => exists(path).catch(() => true);
  for (const item of doc.items) {
    if (item.type !== 'footage') continue;
    const entry = { id: item.id, name: item.name, path: item.path };
    const seq = item.media?.sequence;
    if (!seq || !frames) {
      if (!(await there(item.path))) missing.push(entry);
      continue;
    }
    // A sequence with its first file gone and others there is frames missing, not footage missing (a
    // 1001-numbered shot whose first frame was deleted was reported as wholly gone).
    const gone = await missingFrames(item, there);
    if (gone.length === seq.last - seq.first + 1) missing.push(entry);
    else if (gone.length)
      missing.push({ ...entry, missingFrames: { count: gone.length, first: gone.slice(0, MAX_LISTED) } });
  }
  return missing;
}

/** The frame numbers of a sequence whose files are not there (none for other footage). */
async function missingFrames(item: FootageItem, there: Exists): Promise<number[]> {
  const seq = item.media?.sequence;
  if (!seq) return [];
  const gone: number[] = [];
  for (let start = seq.first; start <= seq.last; start += BATCH) {
    const numbers = Array.from({ length: Math.min(BATCH, seq.last - start + 1) }, (_, i) => start + i);
    const found = await Promise.all(numbers.map((n) => there(sequenceFrame(seq.pattern, n))));
    for (const [i, n] of numbers.entries()) if (!found[i]) gone.push(n);
  }
  return gone;
}
