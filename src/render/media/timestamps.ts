/**
 * Frame timestamps of footage: computed for constant-rate video and sequences (frame i at i / rate), asked of
 * ffprobe once per variable-rate file (its packets' presentation times) and kept by the renderer that asked, a
 * bounded number of files at a time. The document never stores them: an hour of video is 100,000 numbers.
 */
import { constantTimestamps, type FootageItem } from '../../engine/core.js';
import { runBounded } from './child-output.js';

const TIMESTAMPS_TIMEOUT_MS = 60_000;
/** ffprobe prints about 10 bytes a frame: 32 MiB is three million frames. */
const TIMESTAMPS_MAX_BYTES = 32 * 1024 * 1024;
/** Variable-rate files whose timestamps one renderer keeps. */
const KEPT_FILES = 16;

/** Parses ffprobe's `pts_time` lines into ascending seconds from the first frame. */
export function parsePacketTimes(text: string): Float64Array {
  // Packets without a time print N/A; blank lines are not packets.
  const times = text
    .split('\n')
    .map((line) => line.split(',')[0]!.trim())
    .filter((field) => /^-?\d+(\.\d+)?$/.test(field))
    .map(Number);
  times.sort((a, b) => a - b);
  const first = times[0] ?? 0;
  return Float64Array.from(times, (t) => t - first);
}

export class TimestampCache {
  readonly #kept = new Map<string, Promise<Float64Array>>();

  /** The frames' timestamps of `item` (opened for children at `input`); ffprobe is asked only for VFR. */
  timestamps(item: FootageItem, ffprobe: string | null, input: string): Promise<Float64Array> {
    const media = item.media!;
    const count = Math.max(1, media.frameCount ?? 1);
    if (!media.variableFrameRate || !ffprobe)
      return Promise.resolve(constantTimestamps(count, media.frameRate ?? 30));
    const hit = this.#kept.get(item.path);
    if (hit) return hit;
    const probed = runBounded(
      ffprobe,
      ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', input],
      {
        timeoutMs: TIMESTAMPS_TIMEOUT_MS,
        maxBytes: TIMESTAMPS_MAX_BYTES,
        what: `Reading the frame times of "${item.path}"`,
      },
    ).then((r) => {
      const times = parsePacketTimes(r.stdout.toString('utf8'));
      return times.length ? times : constantTimestamps(count, media.frameRate ?? 30);
    });
    // A failure is not kept: the next frame asks again.
    probed.catch(() => this.#kept.delete(item.path));
    this.#kept.set(item.path, probed);
    if (this.#kept.size > KEPT_FILES) this.#kept.delete(this.#kept.keys().next().value!);
    return probed;
  }
}
