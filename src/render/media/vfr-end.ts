/**
 * Where a variable-rate clip's pictures end: its last frame's time plus that frame's duration, counted from its
 * first frame, as the renderer's timestamps count (timestamps.ts).
 *
 * Why: the duration headers state can end before that. An MP4 written by ffmpeg from variable-rate frames states
 * its track as the sum of its sample table's durations, which stopped at 3.8 s for a clip whose last frame is at
 * 3.9 s: the footage item said 3.8 s, so going forward the last frame was never shown, a freeze at 3.85 s was
 * refused, and reversed at its default length the layer ended before the first frames.
 *
 * Only the file's last seconds are read (`-read_intervals`: a seek, then the packets to the end), not a long
 * clip's every packet.
 */
import { z } from 'zod';
import { probeStream } from './probe-stream.js';

/** Seconds before the stated end that are read: past the keyframe the seek lands on, and a long last frame. */
const TAIL_SECONDS = 10;
const TAIL_TIMEOUT_MS = 30_000;
/** A packet prints about 40 bytes of JSON; a seek that fails reads from the start, and then this ends it. */
const TAIL_MAX_BYTES = 4 * 1024 * 1024;

const Tail = z.looseObject({
  packets: z
    .array(z.looseObject({ pts: z.number().optional(), duration: z.number().optional() }))
    .default([]),
  streams: z
    .array(z.looseObject({ time_base: z.string().optional(), start_time: z.string().optional() }))
    .default([]),
});

/**
 * The end of the pictures of the video at `childPath` in seconds from its first frame, or null when the file
 * does not tell (no timestamps, ffprobe failing): the caller keeps the stated duration then.
 */
export async function videoEnd(ffprobe: string, childPath: string, stated: number): Promise<number | null> {
  const from = Math.max(0, stated - TAIL_SECONDS);
  const text = await probeStream(ffprobe, childPath, {
    select: 'v:0',
    readIntervals: `${from.toFixed(6)}%`,
    entries: 'stream=time_base,start_time:packet=pts,duration',
    format: 'json',
    timeoutMs: TAIL_TIMEOUT_MS,
    maxBytes: TAIL_MAX_BYTES,
    what: 'Reading the last frames of a clip',
  });
  if (text === null) return null;
  let parsed;
  try {
    parsed = Tail.safeParse(JSON.parse(text));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  const stream = parsed.data.streams[0];
  const base = /^(\d+)\/(\d+)$/.exec(stream?.time_base ?? '');
  const start = Number(stream?.start_time);
  if (!base || !(Number(base[2]) > 0) || !Number.isFinite(start)) return null;
  const [num, den] = [Number(base[1]), Number(base[2])];
  let last: { pts: number; duration: number } | null = null;
  for (const p of parsed.data.packets)
    if (p.pts !== undefined && (!last || p.pts > last.pts)) last = { pts: p.pts, duration: p.duration ?? 0 };
  if (!last) return null;
  const end = ((last.pts + last.duration) * num) / den - start;
  return Number.isFinite(end) && end > 0 ? end : null;
}
