/**
 * The colour description of every YUV video we encode (MP4/H.264, WebM/VP9, MOV/ProRes and their alpha
 * variants), and the ffmpeg arguments that both convert our RGB frames with it and state it in the file.
 *
 * Untagged video makes each player guess: most assume BT.709 for HD and BT.601 for SD, and ffmpeg's own
 * RGB -> YUV conversion uses BT.601 whatever the size, so an untagged 1080p render shifted colours in every
 * player that guessed BT.709 (#e94560 came back as #f6555d).
 *
 * The rule:
 * - primaries and transfer are BT.709 at every size: that is what our pixels are (sRGB shares BT.709's
 *   primaries, and BT.709 is the transfer video players expect for sRGB-like material);
 * - the matrix is BT.709 from 720 lines up and BT.601 (smpte170m) below, as broadcasters deliver SD: the
 *   matrix is the part that players which ignore tags guess from the frame height, so this choice decodes
 *   right both in players that read the tags and in those that guess;
 * - the range is limited ("tv", 16-235): the default of H.264 and VP9 delivery and the only range ProRes has.
 */
import { sizeMatrix } from '../../yuv/i420.js';
import type { FrameSize } from './types.js';

export interface VideoColour {
  /** ffmpeg's name of the RGB <-> YUV matrix (`-colorspace`). */
  matrix: 'bt709' | 'smpte170m';
  primaries: 'bt709';
  transfer: 'bt709';
  range: 'tv';
}

/** The colour description of a video of this frame size. */
export function videoColour(size: FrameSize): VideoColour {
  return { matrix: sizeMatrix(size.height), primaries: 'bt709', transfer: 'bt709', range: 'tv' };
}

/**
 * Filters converting RGB(A) to YUV with the description's matrix and range, then stamping the frames with it.
 * swscale's default rounding already keeps flat colours within 1 level (accurate_rnd measured no better and
 * costs ~5 ms a 1080p frame); setparams is what ProRes reads (prores_ks writes the frame's description, not
 * the encoder's options).
 */
export function toYuvFilters(size: FrameSize): string {
  const c = videoColour(size);
  return `scale=out_color_matrix=${c.matrix}:out_range=${c.range},${stampYuvFilter(size)}`;
}

/**
 * For frames that arrive as I420 already converted with the description's matrix and range (yuv/i420.ts):
 * only the stamp, no conversion.
 */
export function stampYuvFilter(size: FrameSize): string {
  const c = videoColour(size);
  return `setparams=colorspace=${c.matrix}:color_primaries=${c.primaries}:color_trc=${c.transfer}:range=${c.range}`;
}

/** Encoder options stating the description: x264 and libvpx write them into the stream, the muxers into the container. */
export function colourTags(size: FrameSize): string[] {
  const c = videoColour(size);
  return [
    ...['-colorspace', c.matrix, '-color_primaries', c.primaries],
    ...['-color_trc', c.transfer, '-color_range', c.range],
  ];
}
