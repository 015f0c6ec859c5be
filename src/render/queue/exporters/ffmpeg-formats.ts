/**
 * ffmpeg output arguments (after the raw RGBA input) for every format the format table has ffmpeg encode:
 * MP4 (H.264, yuv420p), WebM (VP9), MOV (ProRes 422 HQ), animated GIF and animated WebP; with RGB + Alpha,
 * VP9 with alpha, ProRes 4444, transparent GIF and WebP. Typed over the table: a format encoded by ffmpeg
 * without an entry here, or alpha arguments that disagree with the table's `alpha`, does not compile.
 * Opaque and alpha arguments are kept apart so that items without alpha encode exactly as they always did.
 */
import type { AlphaFormat, FfmpegFormat } from '../../../engine/index.js';
import type { FrameSize } from './types.js';
import { colourTags, toYuvFilters } from './video-colour.js';
import { disableWebpBlending } from './webp-frames.js';

type Args = (size: FrameSize, frames: number) => string[];

export interface FfmpegFormatArgs<F extends FfmpegFormat> {
  /** Frames flattened on the comp background. */
  opaque: Args;
  /** RGB + Alpha frames (straight alpha), for exactly the formats whose table entry carries alpha. */
  alpha: F extends AlphaFormat ? Args : null;
  /** Rewrites the finished temporary in place, before it is renamed to its final name. */
  finish?: (path: string) => Promise<unknown>;
}

// yuv420p needs even sizes; padding keeps every pixel instead of scaling.
const EVEN = 'pad=ceil(iw/2)*2:ceil(ih/2)*2';
// VP9 wants even sizes too; with alpha the padding must be transparent, not the pad filter's opaque black.
const EVEN_CLEAR = 'pad=ceil(iw/2)*2:ceil(ih/2)*2:color=black@0';
// A two-pass palette holds every frame in ffmpeg until the end; above this budget an opaque GIF uses a fixed
// palette and a transparent one a palette per frame.
const PALETTE_BUDGET_BYTES = 512 * 1024 * 1024;
const wholeClipFits = (size: FrameSize, frames: number) =>
  size.width * size.height * 4 * frames <= PALETTE_BUDGET_BYTES;

/** VP9 at constant quality (CRF 32), "good" speed 4 with row threading: ~real time at 1080p on 2 cores. */
const VP9_QUALITY = [
  '-c:v',
  'libvpx-vp9',
  '-crf',
  '32',
  '-b:v',
  '0',
  '-deadline',
  'good',
  '-cpu-used',
  '4',
  '-row-mt',
  '1',
];

export const FFMPEG_FORMATS: { [F in FfmpegFormat]: FfmpegFormatArgs<F> } = {
  gif: {
    opaque: (size, frames) =>
      wholeClipFits(size, frames)
        ? [
            '-filter_complex',
            'split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse',
            '-loop',
            '0',
            '-f',
            'gif',
          ]
        : ['-loop', '0', '-f', 'gif'],
    // GIF alpha is 1-bit: one palette entry is kept for "transparent", pixels below half opacity use it.
    alpha: (size, frames) => [
      '-filter_complex',
      wholeClipFits(size, frames)
        ? 'split[a][b];[a]palettegen=stats_mode=full:reserve_transparent=1[p];[b][p]paletteuse=alpha_threshold=128'
        : 'split[a][b];[a]palettegen=stats_mode=single:reserve_transparent=1[p];[b][p]paletteuse=new=1:alpha_threshold=128',
      '-loop',
      '0',
      '-f',
      'gif',
    ],
  },
  'webp-anim': {
    // libwebp (not libwebp_anim): every frame a full lossy key frame. libwebp_anim's lossy sub-frames blend
    // "close enough" pixels with the previous frame, leaving trails of moving objects (up to 65 levels),
    // and merge near-identical frames; its lossless mode is exact but ~5x slower and 3-8x bigger.
    opaque: () => ['-c:v', 'libwebp', '-quality', '85', '-loop', '0', '-f', 'webp'],
    // libwebp takes bgra and encodes the alpha plane losslessly next to the lossy colour.
    alpha: () => ['-c:v', 'libwebp', '-quality', '85', '-pix_fmt', 'bgra', '-loop', '0', '-f', 'webp'],
    // ffmpeg's muxer marks every frame "blend over the previous one": transparent pixels would show earlier
    // frames, so every frame is marked "do not blend" (webp-frames.ts).
    finish: disableWebpBlending,
  },
  // MP4, WebM and MOV convert to YUV with the matrix and range their tags state (video-colour.ts).
  mp4: {
    opaque: (size) => [
      '-vf',
      `${EVEN},${toYuvFilters(size)}`,
      '-c:v',
      'libx264',
      '-preset',
      'medium',
      '-crf',
      '18',
      // x264 holds rc-lookahead frames (40 at medium) in memory: 20 (the "faster" preset's) takes its peak at
      // 1080p from ~510 MB to ~380 MB, for 0.02 dB of PSNR and 0.2 % of size (measured; docs/exporters.md).
      '-x264-params',
      'rc-lookahead=20',
      '-pix_fmt',
      'yuv420p',
      ...colourTags(size),
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
    ],
    // H.264 has no alpha channel.
    alpha: null,
  },
  webm: {
    opaque: (size) => [
      '-vf',
      `${EVEN},${toYuvFilters(size)}`,
      ...VP9_QUALITY,
      '-pix_fmt',
      'yuv420p',
      ...colourTags(size),
      '-f',
      'webm',
    ],
    // libvpx encodes alpha as a second stream; alternate reference frames break it in some versions.
    alpha: (size) => [
      '-vf',
      `${EVEN_CLEAR},${toYuvFilters(size)}`,
      ...VP9_QUALITY,
      '-auto-alt-ref',
      '0',
      '-pix_fmt',
      'yuva420p',
      ...colourTags(size),
      '-f',
      'webm',
    ],
  },
  mov: {
    opaque: (size) => [
      ...['-vf', toYuvFilters(size)],
      ...['-c:v', 'prores_ks', '-profile:v', '3', '-pix_fmt', 'yuv422p10le'],
      ...[...colourTags(size), '-f', 'mov'],
    ],
    // ProRes 4444 (profile 4) is the ProRes flavour with an alpha channel.
    alpha: (size) => [
      ...['-vf', toYuvFilters(size)],
      ...['-c:v', 'prores_ks', '-profile:v', '4', '-pix_fmt', 'yuva444p10le'],
      ...[...colourTags(size), '-f', 'mov'],
    ],
  },
};

/** The output arguments for one item: its alpha arguments when it renders RGB + Alpha and the format has them. */
export function ffmpegOutputArgs(
  format: FfmpegFormat,
  alpha: boolean,
  size: FrameSize,
  frames: number,
): string[] {
  const entry: FfmpegFormatArgs<FfmpegFormat> = FFMPEG_FORMATS[format];
  return alpha && entry.alpha ? entry.alpha(size, frames) : entry.opaque(size, frames);
}
