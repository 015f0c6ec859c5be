/**
 * Whether the footage files a frame draws changed on disk since the last frame looked: a file written over
 * (same path, new content), replaced, or deleted. The preview worker keeps decoded frames, a scrub cache and
 * open descriptors by path, so a changed file would go on showing its old pictures; the client then starts a
 * fresh worker. One stat a file a frame (an image sequence: its first frame's file).
 */
import { stat } from 'node:fs/promises';
import type { Project } from '../../engine/index.js';
import { footagePaths } from '../reachable-footage.js';

/** Files whose stamps are kept; past it the oldest is forgotten (and reads as unchanged when seen again). */
const KEPT = 4096;

/** inode, size and change times (to the nanosecond: two writes in one millisecond differ); "missing" when gone. */
export async function stampOf(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return 'missing';
  }
}

export class FootageStamps {
  readonly #seen = new Map<string, string>();

  /** Records the stamps of the footage `compId` draws; true when one differs from the one seen before. */
  async changed(doc: Project, compId: string): Promise<boolean> {
    let changed = false;
    // Sound files too: a frame shows nothing of them, but says when one is gone (FootageCache.prepare), and the
    // worker's open descriptor of a deleted one would still read.
    const paths = footagePaths(doc, [compId]);
    // Stat'ed at once: a composition of hundreds of stills waits for one round trip, not hundreds.
    const stamps = await Promise.all(paths.map(stampOf));
    for (const [i, path] of paths.entries()) {
      const stamp = stamps[i]!;
      const before = this.#seen.get(path);
      if (before !== undefined && before !== stamp) changed = true;
      this.#seen.delete(path);
      this.#seen.set(path, stamp);
      if (this.#seen.size > KEPT) this.#seen.delete(this.#seen.keys().next().value!);
    }
    return changed;
  }
}
