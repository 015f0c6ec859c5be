/**
 * Where a decoder that starts at frame `at` of a clip seeks, so that the first frame it writes is exactly that one.
 *
 * Two things make ffmpeg's `-ss` (before `-i`: a fast seek, then frames before the time decoded and dropped) land
 * elsewhere than asked:
 * - It counts from the file's start, the earliest stream's first timestamp, and footage time 0 is the first
 *   picture: where the sound starts first (a camera's file, a clip cut with `-c copy`), every seek landed that
 *   much early. The footage item records the difference (`media.pictureStart`), and it is added.
 * - A container with no index (MPEG-TS, MPEG-PS, a raw elementary stream) is sought by its timestamps alone, to a
 *   packet that is in general not a key frame; H.264 then decodes nothing until the next key frame, and the
 *   frames before it are simply missing. A clip with a key frame every 8 frames sought to frame 36 gave frame 40
 *   first, and the render numbered it 36. For those the seek goes to a little before the key frame at or before
 *   the wanted frame (the key frames' times are read once per file: timestamps.ts), and the frames from there to
 *   the wanted one are dropped by ffmpeg by their timestamps (`-ss` after `-i`), so the first frame written is
 *   the wanted one whatever the decoder did before it. A file whose packets carry no times (a raw stream) is
 *   read from its start, dropped the same way.
 */
import type { FootageItem } from '../../engine/core.js';

/** Containers (the footage item's `format`) whose seeks land by timestamp on any packet, not on a key frame. */
const INDEXLESS = new Set(['mpegts', 'mpegtsraw', 'mpeg', 'mpegvideo', 'h264', 'hevc', 'm4v', 'vc1']);

/**
 * How far before the key frame the fast seek goes: a packet is found by its decoding time, which comes before its
 * presentation time by the codec's reordering (a few frames); landing after the key frame's packet would lose it.
 */
const BEFORE_KEY_FRAME = 0.5;

/** `-ss` before the input (0: none), and after it (frames before that much more are dropped by their times). */
export interface SeekPlan {
  seek: number;
  trim?: number;
}

/** Whether `item`'s seeks need its key frames (see above). */
export const seeksWithoutIndex = (item: FootageItem): boolean => INDEXLESS.has(item.format);

/**
 * The seek for a decoder whose first frame is frame `at` (time `ts[at]` from the first picture). `keyframes`: the
 * clip's key frame times (from the first picture), for a container without an index; null for the others.
 */
export function seekPlan(
  ts: ArrayLike<number>,
  at: number,
  pictureStart: number,
  keyframes: ArrayLike<number> | null,
): SeekPlan {
  if (at <= 0) return { seek: 0 };
  // Half a frame before the wanted one: accurate seeking drops what is before, and keeps exactly it.
  const wanted = pictureStart + ts[at]! - (ts[at]! - ts[at - 1]!) / 2;
  if (!keyframes) return { seek: wanted };
  let key = 0;
  for (let i = 0; i < keyframes.length && keyframes[i]! <= ts[at]! + 1e-6; i++) key = keyframes[i]!;
  const seek = key > 0 ? Math.max(0, pictureStart + key - BEFORE_KEY_FRAME) : 0;
  // Without a fast seek, ffmpeg counts the times it drops by from the first picture, not from the file's start
  // (measured with ffmpeg 5.1): adding pictureStart there landed that much late, frame 21 for frame 5 in an
  // MPEG-TS whose picture starts 0.52 s after its sound, wherever the first key frame was the one before.
  return { seek, trim: seek > 0 ? wanted - seek : wanted - pictureStart };
}
