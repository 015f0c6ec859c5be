/**
 * Closer looks at one stream of a file, for the few files whose headers cannot be trusted (closer-look.ts
 * decides which): its packets' times and flags (demuxing only, no decoding), or the time of the first sample
 * its decoder gives. Each is one bounded ffprobe child reading the descriptor the ports opened.
 */
import { probeStream } from './probe-stream.js';

const SCAN_TIMEOUT_MS = 60_000;
/** A packet prints about 20 bytes: 32 MiB is over a million packets (hours of sound, of 60 fps video). */
const SCAN_MAX_BYTES = 32 * 1024 * 1024;

/** What the packets of one stream say, in seconds of the stream's own timestamps. */
export interface PacketScan {
  /** The earliest presentation time of a packet that is shown. */
  first: number;
  /** The end of the last packet that is shown (its time plus its duration). */
  end: number;
  /** Packets shown: those an edit list does not mark to discard (an MP4 cut without re-encoding keeps them). */
  shown: number;
  /** Packets the container marks to discard (decoded only to reach the first shown frame). */
  discarded: number;
  /**
   * Packets without a presentation time (absent when none): MPEG-PS gives one only to the first picture that
   * starts in each 2 KB pack, so a stream of small pictures has most without one. `first` and `end` are then
   * those of the timed packets only, and the stream's stated duration (ffmpeg's, from the last time it found)
   * falls short of its pictures.
   */
  untimed?: number;
}

/**
 * Reads every packet of stream `index` (ffprobe's absolute stream index): null when ffprobe fails or the
 * packets carry no timestamps, and the caller keeps what the headers say.
 */
export async function scanPackets(
  ffprobe: string,
  childPath: string,
  index: number,
): Promise<PacketScan | null> {
  const text = await probeStream(ffprobe, childPath, {
    select: String(index),
    entries: 'stream=time_base:packet=pts,duration,flags',
    format: 'csv=p=0',
    timeoutMs: SCAN_TIMEOUT_MS,
    maxBytes: SCAN_MAX_BYTES,
    what: 'Reading the packets of a stream',
  });
  return text === null ? null : parsePacketScan(text);
}

/**
 * ffprobe's CSV of `packet=pts,duration,flags` lines (`-7680,512,KD`) and one `stream=time_base` line (`1/15360`),
 * in either order. Integers are summed in the time base and divided once, so a long file's end stays exact.
 */
export function parsePacketScan(text: string): PacketScan | null {
  let base: [number, number] | null = null;
  let first = Infinity;
  let end = -Infinity;
  let shown = 0;
  let discarded = 0;
  let untimed = 0;
  for (const line of text.split('\n')) {
    const fields = line.trim().split(',');
    // A stream with side data (a phone clip's display matrix, MPEG-2's CPB properties) prints its time base
    // line with an empty field after it ("1/15360,"): read without it, or the time base is never found.
    while (fields.length > 1 && fields[fields.length - 1] === '') fields.pop();
    const ratio = fields.length === 1 ? /^(\d+)\/(\d+)$/.exec(fields[0]!) : null;
    if (ratio) {
      if (Number(ratio[2]) > 0) base = [Number(ratio[1]), Number(ratio[2])];
      continue;
    }
    const pts = Number(fields[0]);
    if (fields.length >= 2 && fields[0] === 'N/A') untimed++;
    if (fields.length < 2 || fields[0] === '' || !Number.isFinite(pts)) continue;
    // The discard flag ('D', the second of ffprobe's flag letters) marks an edit list's pre-roll.
    if (fields[2]?.includes('D')) {
      discarded++;
      continue;
    }
    const duration = Number(fields[1]);
    shown++;
    first = Math.min(first, pts);
    end = Math.max(end, pts + (Number.isFinite(duration) && duration > 0 ? duration : 0));
  }
  if (!base || !shown) return null;
  const [num, den] = base;
  return {
    first: (first * num) / den,
    end: (end * num) / den,
    shown,
    discarded,
    ...(untimed ? { untimed } : {}),
  };
}

/**
 * The presentation time in seconds of the first sample the decoder of audio stream `index` gives, or null.
 * Opus starts with a pre-skip (312 samples, 6.5 ms, from ffmpeg's encoder) that the decoder drops: the stream's
 * start_time is that of the dropped samples, and the first heard sample comes this much later.
 */
export async function firstSampleTime(
  ffprobe: string,
  childPath: string,
  index: number,
): Promise<number | null> {
  const text = await probeStream(ffprobe, childPath, {
    select: String(index),
    // A few packets: a decoder may need more than one before it gives a frame.
    readIntervals: '%+#4',
    entries: 'frame=best_effort_timestamp_time',
    format: 'csv=p=0',
    timeoutMs: SCAN_TIMEOUT_MS,
    maxBytes: 64 * 1024,
    what: 'Reading the first sound of a stream',
  });
  if (text === null) return null;
  const first = text
    .split('\n')
    .map((line) => line.split(',')[0]!.trim())
    .find((field) => /^-?\d+(\.\d+)?$/.test(field));
  return first === undefined ? null : Number(first);
}

/**
 * The time in seconds just after the last sample the decoder of audio stream `index` gives (its last frame's
 * time plus its samples at `rate`, the stream's sample rate), decoding from `from` seconds on (a seek: only the file's end is decoded); null when
 * ffprobe fails or decodes nothing. The decoder drops what the encoder padded the last frame with, which a
 * stream's stated duration counts.
 */
export async function lastSampleEnd(
  ffprobe: string,
  childPath: string,
  index: number,
  rate: number,
  from: number,
): Promise<number | null> {
  const text = await probeStream(ffprobe, childPath, {
    select: String(index),
    readIntervals: `${Math.max(0, from).toFixed(6)}%`,
    entries: 'frame=best_effort_timestamp_time,nb_samples',
    format: 'csv=p=0',
    timeoutMs: SCAN_TIMEOUT_MS,
    maxBytes: SCAN_MAX_BYTES,
    what: 'Reading the last sound of a stream',
  });
  if (text === null) return null;
  let end: number | null = null;
  for (const line of text.split('\n')) {
    const [time, samples] = line.trim().split(',').map(Number);
    if (Number.isFinite(time) && samples! > 0) end = Math.max(end ?? -Infinity, time! + samples! / rate);
  }
  return end;
}
