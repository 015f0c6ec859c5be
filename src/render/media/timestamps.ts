/**
 * Frame timestamps of footage: computed for constant-rate video and sequences (frame i at i / rate), asked of
 * ffprobe once per variable-rate file (its packets' presentation times) and kept by the renderer that asked, a
 * bounded number of files at a time. The document never stores them: an hour of video is 100,000 numbers. The
 * key frames' times of a clip whose container has no index (seek-plan.ts) come from the same packet list.
 */
import { constantTimestamps, type FootageItem } from '../../engine/core.js';
import { runBounded } from './child-output.js';
import { FOOTAGE_INPUT_OPTIONS } from './input-formats.js';

const TIMESTAMPS_TIMEOUT_MS = 60_000;
/** ffprobe prints about 10 bytes a frame: 32 MiB is three million frames. */
const TIMESTAMPS_MAX_BYTES = 32 * 1024 * 1024;
/** Files whose timestamps (or key frames) one renderer keeps. */
const KEPT_FILES = 16;

/**
 * Parses ffprobe's packet lines into ascending seconds from the first frame: integer `pts` in the stream's time
 * base (its `num/den` line), or seconds (`pts_time`) where no time base is given. The integers and the exact
 * base matter: `pts_time` is printed to 6 decimals, and a comp time exactly between two frames (1.1666… between
 * 1.133333 and 1.2) then looked nearer the later one, where a tie goes to the earlier.
 */
export function parsePacketTimes(text: string): Float64Array {
  const { rows, num, den } = packetRows(text);
  // Packets without a time print N/A; blank lines are not packets.
  const values = rows.filter((row) => /^-?\d+(\.\d+)?$/.test(row[0]!)).map((row) => Number(row[0]));
  values.sort((a, b) => a - b);
  const first = values[0] ?? 0;
  // Differences of integers are exact; one division each keeps the time within a rounding of the true one.
  return Float64Array.from(values, (v) => ((v - first) * num) / den);
}

/**
 * Key frame times from ffprobe's packet lines (`pts,flags`), in seconds from the first packet's time (as
 * parsePacketTimes counts frame times), ascending; empty when the packets carry no times; null when only some
 * do (more than one without: MPEG-PS of small pictures): ffmpeg then guesses the others' times, a frame off in
 * places, so a seek that drops frames by their times lands a frame off, and such a file is read from its start,
 * its frames counted.
 */
export function parseKeyframeTimes(text: string): Float64Array | null {
  const { rows, num, den } = packetRows(text);
  const packets = rows.filter((row) => /^-?\d+$/.test(row[0]!) && row.length > 1);
  if (!packets.length) return new Float64Array(0);
  // One stray packet without a time (a stream's last) is no matter; runs of them are.
  if (rows.filter((row) => row[0] === 'N/A' && row.length > 1).length > 1) return null;
  // A loop, not Math.min(...packets): a call takes about 125,000 spread arguments, and an hour of 30 fps video
  // has more packets; the RangeError made such a clip's every seek decode from the file's start.
  let first = Infinity;
  for (const row of packets) first = Math.min(first, Number(row[0]));
  const keys = packets
    .filter((row) => row[1]!.startsWith('K'))
    .map((row) => ((Number(row[0]) - first) * num) / den);
  return Float64Array.from(keys.sort((a, b) => a - b));
}

/** ffprobe's packet lines split into fields, and the stream's time base (its `num/den` line; 1/1 without one). */
function packetRows(text: string): { rows: string[][]; num: number; den: number } {
  const rows = text.split('\n').map((line) => line.split(',').map((field) => field.trim()));
  const base = rows.map((row) => /^(\d+)\/(\d+)$/.exec(row[0]!)).find((m) => m && Number(m[2]) > 0);
  return { rows, num: base ? Number(base[1]) : 1, den: base ? Number(base[2]) : 1 };
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
  readonly #times = new Map<string, Promise<Float64Array>>();
  readonly #keyframes = new Map<string, Promise<Float64Array | null>>();

  /** The frames' timestamps of `item` (opened for children at `input`); ffprobe is asked only for VFR. */
  timestamps(item: FootageItem, ffprobe: string | null, input: string): Promise<Float64Array> {
    const media = item.media!;
    const count = Math.max(1, media.frameCount ?? 1);
    if (!media.variableFrameRate || !ffprobe)
      return Promise.resolve(constantTimestamps(count, media.frameRate ?? 30));
    return kept(this.#times, item.path, () =>
      readPackets(ffprobe, input, 'pts', `Reading the frame times of "${item.path}"`).then((r) => {
        const times = parsePacketTimes(r);
        return times.length ? times : constantTimestamps(count, media.frameRate ?? 30);
      }),
    );
  }

  /**
   * The key frames' times of `item`, from the first frame (for a container without an index: seek-plan.ts); null
   * when only some packets carry a time (parseKeyframeTimes).
   */
  keyframes(item: FootageItem, ffprobe: string, input: string): Promise<Float64Array | null> {
    return kept(this.#keyframes, item.path, () =>
      readPackets(ffprobe, input, 'pts,flags', `Reading the key frames of "${item.path}"`).then(
        parseKeyframeTimes,
      ),
    );
  }
}

/** `path`'s entry of `map`, made by `make` when there is none; a failure is not kept (the next frame asks again). */
function kept<T>(map: Map<string, Promise<T>>, path: string, make: () => Promise<T>): Promise<T> {
  const hit = map.get(path);
  if (hit) return hit;
  const made = make();
  made.catch(() => map.delete(path));
  map.set(path, made);
  if (map.size > KEPT_FILES) map.delete(map.keys().next().value!);
  return made;
}
