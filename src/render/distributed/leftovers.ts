/**
 * Leftovers of distributed renders. Temporaries left by a worker killed mid-chunk (SIGKILL, a machine lost): the render queue's cleanup never
 * ran in that process, and its chunk was rendered again elsewhere. The assembly removes them, matching only
 * the temporary names the FileTracker gives the item's own frames (`.NAME.<10 hex>.part`, tracker.ts), so no
 * other file in the folder is touched.
 */
import { readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP = /^\.(.+)\.[0-9a-f]{10}\.part$/;

/** Removes the temporaries of `finals` (final paths) found beside them. */
export async function removeLeftTemporaries(finals: readonly string[]): Promise<void> {
  const byDir = new Map<string, Set<string>>();
  for (const path of finals) {
    const names = byDir.get(dirname(path)) ?? new Set<string>();
    names.add(basename(path));
    byDir.set(dirname(path), names);
  }
  for (const [dir, names] of byDir) {
    const entries = await readdir(dir).catch(() => [] as string[]);
    for (const entry of entries) {
      const final = TEMP.exec(entry)?.[1];
      if (final !== undefined && names.has(final)) await unlink(join(dir, entry)).catch(() => undefined);
    }
  }
}

/** A segment's name (chunks.ts segmentPath): `.NAME.<render id's first 8>.<first>-<last>.seg<ext>`. */
const SEGMENT = /^\.(.+)\.([0-9a-f]{8})\.\d+-\d+\.seg(\.[^.]*)?$/;

/**
 * Removes every segment of the render `segment` belongs to (its folder, its output's name, its render's id), once
 * that render is known abandoned (its coordinator's lease ran out, lease.ts): nothing will ever join them, and
 * they are hidden files of gigabytes beside the output. Returns how many went.
 */
export async function removeAbandonedSegments(segment: string): Promise<number> {
  const own = SEGMENT.exec(basename(segment));
  if (!own) return 0;
  const [, name, render, ext] = own;
  let removed = 0;
  for (const entry of await readdir(dirname(segment)).catch(() => [] as string[])) {
    const m = SEGMENT.exec(entry);
    if (!m || m[1] !== name || m[2] !== render || m[3] !== ext) continue;
    if (
      await unlink(join(dirname(segment), entry)).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}
