/**
 * Frame timestamps of footage: computed for constant-rate video and sequences (frame i at i / rate), asked of
 * ffprobe once per variable-rate file (its packets' presentation times) and kept by the renderer that asked, a
 * bounded number of files at a time. The document never stores them: an hour of video is 100,000 numbers.
 */
import { constantTimestamps, type FootageItem } from '../../engine/core.js';
import { runBounded } from './child-output.js';
import { FOOTAGE_INPUT_OPTIONS } from './input-formats.js';

const TIMESTAMPS_TIMEOUT_MS = 60_000;
/** ffprobe prints about 10 bytes a frame: 32 MiB is three million frames. */
const TIMESTAMPS_MAX_BYTES = 32 * 1024 * 1024;
/** Variable-rate files whose timestamps one renderer keeps. */
const KEPT_FILES = 16;

/**
 * Parses ffprobe's packet lines into ascending seconds from the first frame: integer `pts` in the stream's time
 * base (its `num/den` line), or seconds (`pts_time`) where no time base is given. The integers and the exact
 * base matter: `pts_time` is printed to 6 decimals, and a comp time exactly between two frames (1.1666… between
 * 1.133333 and 1.2) then looked nearer the later one, where a tie goes to the earlier.
 */
export function parsePacketTimes(text: string): Float64Array {
  const lines = text.split('\n').map((line) => line.split(',')[0]!.trim());
  const base = lines.map((l) => /^(\d+)\/(\d+)$/.exec(l)).find((m) => m && Number(m[2]) > 0);
  // Packets without a time print N/A; blank lines are not packets.
  const values = lines.filter((field) => /^-?\d+(\.\d+)?$/.test(field)).map(Number);
  values.sort((a, b) => a - b);
  const first = values[0] ?? 0;
  // Differences of integers are exact; one division each keeps the time within a rounding of the true one.
  const [num, den] = base ? [Number(base[1]), Number(base[2])] : [1, 1];
  return Float64Array.from(values, (v) => ((v - first) * num) / den);
}

/**
 * ffprobe's line per packet of a clip's first video stream (`entries`: `pts`, or `pts,flags`), after its time
 * base line, as text.
 */
export function readPackets(ffprobe: string, input: string, entries: string, what: string): Promise<string> {
  return runBounded(
    ffprobe,
    [
      ...['-v', 'error', '-select_streams', 'v:0'],
      ...['-show_entries', `stream=time_base:packet=${entries}`, '-of', 'csv=p=0'],
      ...FOOTAGE_INPUT_OPTIONS,
      input,
    ],
    { timeoutMs: TIMESTAMPS_TIMEOUT_MS, maxBytes: TIMESTAMPS_MAX_BYTES, what },
  ).then((r) => r.stdout.toString('utf8'));
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
    const probed = readPackets(ffprobe, input, 'pts', `Reading the frame times of "${item.path}"`).then(
      (r) => {
        const times = parsePacketTimes(r);
        return times.length ? times : constantTimestamps(count, media.frameRate ?? 30);
      },
    );
    // A failure is not kept: the next frame asks again.
    probed.catch(() => this.#kept.delete(item.path));
    this.#kept.set(item.path, probed);
    if (this.#kept.size > KEPT_FILES) this.#kept.delete(this.#kept.keys().next().value!);
    return probed;
  }
}
