/**
 * Temporaries left by a worker killed mid-chunk (SIGKILL, a machine lost): the render queue's cleanup never
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
