/**
 * Whether the footage files a frame draws changed on disk since the last frame looked: a file written over
 * (same path, new content), replaced, or deleted. The preview worker keeps decoded frames, a scrub cache and
 * open descriptors by path, so a changed file would go on showing its old pictures; the client then starts a
 * fresh worker. One stat a file a frame; for an image sequence, its first frame's file (what the item names)
 * and the files of the frames shown at the time drawn (until 2026-12-07 only the first: a later frame written
 * over or deleted went on showing as it was decoded).
 */
import { stat } from 'node:fs/promises';
import { constantTimestamps, sequenceFrame, type FootageItem, type Project } from '../../engine/index.js';
import { footageSourceTime, shownFrames, visitFootageLayers } from '../media/frame-plan.js';
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

  /**
   * Records the stamps of the footage `compId` draws (at `time`: the sequence frames shown then); true when one
   * differs from the one seen before.
   */
  async changed(doc: Project, compId: string, time?: number): Promise<boolean> {
    let changed = false;
    // Sound files too: a frame shows nothing of them, but says when one is gone (FootageCache.prepare), and the
    // worker's open descriptor of a deleted one would still read.
    const paths = [...new Set([...footagePaths(doc, [compId]), ...shownSequenceFiles(doc, compId, time)])];
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

/**
 * The files of the image-sequence frames `compId` shows at `time` (both neighbours of the source time: the
 * frame shown, blended or not, is one of them). Timestamps of a sequence are its constant rate's.
 */
function shownSequenceFiles(doc: Project, compId: string, time: number | undefined): string[] {
  const comp = doc.items.find((i) => i.id === compId);
  if (time === undefined || comp?.type !== 'composition') return [];
  const files: string[] = [];
  visitFootageLayers(doc, comp, time, (item, layer, lt) => {
    const seq = item.media?.kind === 'sequence' ? item.media.sequence : undefined;
    const source = seq ? footageSourceTime(layer, lt, item) : null;
    if (!seq || source === null) return;
    const { a, b } = shownFrames(layer, item, source, sequenceTimes(item), true);
    files.push(sequenceFrame(seq.pattern, seq.first + a), sequenceFrame(seq.pattern, seq.first + b));
  });
  return files;
}

/** Sequences' frame times by count and rate, kept: made per frame they cost 864 KB for a 108,000-frame one. */
const SEQUENCE_TIMES = new Map<string, Float64Array>();
const KEPT_TIMES = 8;

function sequenceTimes(item: FootageItem): Float64Array {
  const [count, rate] = [Math.max(1, item.media!.frameCount ?? 1), item.media!.frameRate ?? 30];
  const key = `${count}@${rate}`;
  let times = SEQUENCE_TIMES.get(key);
  if (!times) {
    SEQUENCE_TIMES.set(key, (times = constantTimestamps(count, rate)));
    if (SEQUENCE_TIMES.size > KEPT_TIMES) SEQUENCE_TIMES.delete(SEQUENCE_TIMES.keys().next().value!);
  }
  return times;
}
