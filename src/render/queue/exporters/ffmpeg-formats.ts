/**
 * ffmpeg output arguments (after the raw picture input: RGBA, or I420 for opaque MP4 and WebM) for every
 * format the format table has ffmpeg encode: MP4 (H.264, yuv420p), WebM (VP9), MOV (ProRes 422 HQ), animated GIF and animated WebP; with RGB + Alpha,
 * VP9 with alpha, ProRes 4444, transparent GIF and WebP. Typed over the table: a format encoded by ffmpeg
 * without an entry here, or alpha arguments that disagree with the table's `alpha`, does not compile.
 * Opaque and alpha arguments are kept apart so that items without alpha encode exactly as they always did.
 */
import type { AlphaFormat, Encoding, FfmpegFormat } from '../../../engine/index.js';
import type { FrameSize } from './types.js';
import { colourTags, stampYuvFilter, toYuvFilters } from './video-colour.js';
import { finishAnimatedWebp } from './webp-frames.js';
import { MOVIE_TIMESCALE } from './movie-timescale.js';
import { exactRate, ffmpegRate } from './frame-rate.js';

/**
 * The pixels ffmpeg reads: RGBA, or I420 the render workers converted (yuv/i420.ts), for the formats whose
 * opaque encoding is YUV 4:2:0 (`i420: true`).
 */
export type PictureInput = 'rgba' | 'i420';

/**
 * `enc`: the item's encoding (renderQueue.add checked it against the format); absent fields keep the defaults.
 * `input`: what the frames arrive as (only formats with `i420: true` are given I420).
 */
type Args = (
  size: FrameSize,
  frames: number,
  enc: Encoding,
  input: PictureInput,
  /** The composition's frame rate (fps), where the format needs it (GIF). */
  rate?: number,
) => string[];

export interface FfmpegFormatArgs<F extends FfmpegFormat> {
  /** Frames flattened on the comp background. */
  opaque: Args;
  /** RGB + Alpha frames (straight alpha), for exactly the formats whose table entry carries alpha. */
  alpha: F extends AlphaFormat ? Args : null;
  /** Rewrites the finished temporary in place, before it is renamed to its final name; `alpha`: the item's. */
  finish?: (path: string, alpha: boolean) => Promise<unknown>;
  /** The opaque encoding is YUV 4:2:0 at 8 bits: it takes frames as I420. */
  i420?: true;
}

// yuv420p needs even sizes; padding keeps every pixel instead of scaling. VP9 wants even sizes too; with alpha
// the padding must be transparent, not the pad filter's opaque black. An even frame gets no pad filter at all:
// it would copy every frame (8 MB at 1080p) into a pool of its own, ~8 MB of ffmpeg's peak for nothing.
const EVEN = 'pad=ceil(iw/2)*2:ceil(ih/2)*2,';
const EVEN_CLEAR = 'pad=ceil(iw/2)*2:ceil(ih/2)*2:color=black@0,';
const padFor = (size: FrameSize, pad: string) => (size.width % 2 || size.height % 2 ? pad : '');
// ProRes 4:2:2 halves the width only, and ffmpeg's ProRes mishandles an odd width's last chroma sample: the
// last column takes its neighbour's chroma (a red column beside purple came back 81 levels off), and at a
// width of 1 mod 16 (641, 1281) it decodes green on every row ((0, 225, 0) for any colour). So an odd width is
// padded with black as MP4's is; an odd height is encoded as it is, and 4444 keeps full chroma at any size.
const EVEN_WIDTH = 'pad=ceil(iw/2)*2:ih,';
/** RGBA is padded and converted here; I420 frames arrive even-sized (the worker pads) and converted. */
const opaqueYuv420 = (size: FrameSize, input: PictureInput) =>
  input === 'i420' ? stampYuvFilter(size) : `${padFor(size, EVEN)}${toYuvFilters(size)}`;
// A two-pass palette holds every frame in ffmpeg until the end; above this budget an opaque GIF uses a fixed
// palette and a transparent one a palette per frame.
const PALETTE_BUDGET_BYTES = 512 * 1024 * 1024;
const wholeClipFits = (size: FrameSize, frames: number) =>
  size.width * size.height * 4 * frames <= PALETTE_BUDGET_BYTES;

/** VP9 at constant quality (CRF 32), "good" speed 4 with row threading: ~real time at 1080p on 2 cores. */
const VP9_QUALITY = (enc: Encoding) => [
  '-c:v',
  'libvpx-vp9',
  '-crf',
  String(enc.crf ?? 32),
  '-b:v',
  '0',
  '-deadline',
  'good',
  '-cpu-used',
  '4',
  '-row-mt',
  '1',
];

/** Animated WebP: libwebp at the item's quality (default 85). */
const webpQuality = (enc: Encoding) => ['-c:v', 'libwebp', '-quality', String(enc.quality ?? 85)];

/** prores_ks profile numbers by name. */
const PRORES_PROFILE_IDS = { proxy: '0', lt: '1', standard: '2', hq: '3', '4444': '4' } as const;

/**
 * A GIF palette filter: one palette for the whole clip (global; ffmpeg holds every frame until the end) or one
 * per frame; with alpha one entry is reserved for "transparent" (1-bit alpha: below half opacity).
 */
function gifPalette(alpha: boolean, palette: 'global' | 'per-frame', enc: Encoding): string {
  const gen = [
    `stats_mode=${palette === 'global' ? 'full' : 'single'}`,
    ...(alpha ? ['reserve_transparent=1'] : []),
  ];
  const use = [
    ...(palette === 'per-frame' ? ['new=1'] : []),
    ...(alpha ? ['alpha_threshold=128'] : []),
    ...(enc.gifDither ? [`dither=${enc.gifDither}`] : []),
  ];
  return `split[a][b];[a]palettegen=${gen.join(':')}[p];[b][p]paletteuse${use.length ? `=${use.join(':')}` : ''}`;
}

/**
 * GIF frame delays are whole 1/100 s, and browsers (Chrome, Firefox, Safari) and ffmpeg's own demuxer play a
 * delay under 2/100 s as 1/10 s. A composition above 50 fps gave delays of 1 and 2 (60 fps: 41 of 120 frames at
 * 1/100 s), so its 2 s GIF played for 5.68 s. Such a composition's GIF keeps every k-th frame, k the smallest
 * whole number that brings the rate to 50 fps or less (60 -> 30, 120 -> 40): the clip lasts what it lasts.
 * Animated WebP's delays are whole milliseconds, and Chrome and Firefox play any animated image's delay of
 * 10 ms or less as 100 ms: a 1 s 120 fps WebP (delays of 8 and 9 ms) played for 12 s. Its rate is held to
 * 90 fps (delays of 11 ms and more): 100 and 120 fps are written at 50 and 60.
 */
export const MAX_RATE = { gif: 50, 'webp-anim': 90 } as const;
export const frameStep = (format: keyof typeof MAX_RATE, rate: number): number =>
  Math.max(1, Math.ceil(rate / MAX_RATE[format] - 1e-9));

/** The fps filter that keeps every k-th frame of a composition above the format's rate; null otherwise. */
function rateFilter(format: keyof typeof MAX_RATE, rate: number | undefined): string | null {
  if (rate === undefined || frameStep(format, rate) === 1) return null;
  return `fps=${ffmpegRate(rate)}/${frameStep(format, rate)}`;
}
/** `-vf` with rateFilter's filter, or nothing. */
function rateArgs(format: keyof typeof MAX_RATE, rate: number | undefined): string[] {
  const filter = rateFilter(format, rate);
  return filter ? ['-vf', filter] : [];
}
/** The GIF's palette graph, after rateFilter's step where there is one. */
const gifGraph = (rate: number | undefined, palette: string) =>
  [rateFilter('gif', rate), palette].filter((f) => f !== null).join(',');

/**
 * The GIF muxer's arguments. Each frame's delay is the gap to the next frame's time in 1/100 s, but the last
 * one's is its own duration rounded up on its own: a 15 s 30 fps GIF ended at 15.01 s (450 frames, the last
 * shown from 14.97 s for 4/100 s), 2 s at 30 fps at 2.01 s. `-final_delay` ends the last frame where the
 * clip ends, its frames (after the step above) at its rate, to the nearest 1/100 s.
 */
function gifMuxer(frames: number, rate: number | undefined): string[] {
  if (rate === undefined) return ['-loop', '0', '-f', 'gif'];
  const step = frameStep('gif', rate);
  const perFrame = (100 * step) / exactRate(rate); // 1/100 s a written frame lasts
  const written = Math.ceil(frames / step);
  const last = Math.round(written * perFrame) - Math.round((written - 1) * perFrame);
  return ['-loop', '0', '-final_delay', String(Math.max(2, last)), '-f', 'gif'];
}

/** The item's palette mode, else global when the whole clip fits the budget. */
const gifPaletteOf = (size: FrameSize, frames: number, enc: Encoding) =>
  enc.gifPalette ?? (wholeClipFits(size, frames) ? 'global' : 'per-frame');

export const FFMPEG_FORMATS: { [F in FfmpegFormat]: FfmpegFormatArgs<F> } = {
  gif: {
    // Without palette settings, a clip over the budget keeps ffmpeg's fixed palette (no frames held).
    opaque: (size, frames, enc, _input, rate) =>
      enc.gifPalette || enc.gifDither || wholeClipFits(size, frames)
        ? [
            '-filter_complex',
            gifGraph(rate, gifPalette(false, gifPaletteOf(size, frames, enc), enc)),
            ...gifMuxer(frames, rate),
          ]
        : [...rateArgs('gif', rate), ...gifMuxer(frames, rate)],
    // GIF alpha is 1-bit: one palette entry is kept for "transparent", pixels below half opacity use it.
    alpha: (size, frames, enc, _input, rate) => [
      '-filter_complex',
      gifGraph(rate, gifPalette(true, gifPaletteOf(size, frames, enc), enc)),
      ...gifMuxer(frames, rate),
    ],
  },
  'webp-anim': {
    // libwebp (not libwebp_anim): every frame a full lossy key frame. libwebp_anim's lossy sub-frames blend
    // "close enough" pixels with the previous frame, leaving trails of moving objects (up to 65 levels),
    // and merge near-identical frames; its lossless mode is exact but ~5x slower and 3-8x bigger.
    // The frames go in as they come (ffmpeg hands libwebp RGB): libwebp's own conversion to YUV keeps an odd
    // width's last column, which through ffmpeg's yuv420p turned red to 226,11,15.
    opaque: (_size, _frames, enc, _input, rate) => [
      ...rateArgs('webp-anim', rate),
      ...webpQuality(enc),
      '-loop',
      '0',
      '-f',
      'webp',
    ],
    // libwebp takes bgra and encodes the alpha plane losslessly next to the lossy colour.
    alpha: (_size, _frames, enc, _input, rate) => [
      ...rateArgs('webp-anim', rate),
      ...webpQuality(enc),
      '-pix_fmt',
      'bgra',
      '-loop',
      '0',
      '-f',
      'webp',
    ],
    // ffmpeg's muxer marks every frame "blend over the previous one": transparent pixels would show earlier
    // frames, so every frame is marked "do not blend"; an opaque file loses the alpha flag it sets (webp-frames.ts).
    finish: finishAnimatedWebp,
  },
  // MP4, WebM and MOV convert to YUV with the matrix and range their tags state (video-colour.ts).
  mp4: {
    i420: true,
    opaque: (size, _frames, enc, input) => [
      '-vf',
      opaqueYuv420(size, input),
      '-c:v',
      enc.codec === 'h265' ? 'libx265' : 'libx264',
      '-preset',
      enc.x264Preset ?? 'medium',
      '-crf',
      String(enc.crf ?? 18),
      // x264 holds rc-lookahead frames (40 at medium) in memory, and sync-lookahead more for its lookahead
      // thread. rc-lookahead 10 (the "veryfast" preset's) without the threaded lookahead's buffer takes ffmpeg's
      // peak on the 1080p benchmark from ~460 MB (rc-lookahead 20) to ~360 MB, for about 0.01 dB of PSNR; the
      // lookahead buffer changes no output byte (measured; docs/exporters.md).
      // Apple players only play HEVC in MP4 tagged hvc1.
      ...(enc.codec === 'h265'
        ? ['-tag:v', 'hvc1', '-x265-params', 'log-level=error']
        : ['-x264-params', 'rc-lookahead=10:sync-lookahead=0']),
      '-pix_fmt',
      'yuv420p',
      ...colourTags(size),
      ...MOVIE_TIMESCALE,
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
    ],
    // H.264 has no alpha channel.
    alpha: null,
  },
  webm: {
    i420: true,
    opaque: (size, _frames, enc, input) => [
      '-vf',
      opaqueYuv420(size, input),
      ...VP9_QUALITY(enc),
      '-pix_fmt',
      'yuv420p',
      ...colourTags(size),
      '-f',
      'webm',
    ],
    // libvpx encodes alpha as a second stream; alternate reference frames break it in some versions.
    alpha: (size, _frames, enc) => [
      '-vf',
      `${padFor(size, EVEN_CLEAR)}${toYuvFilters(size)}`,
      ...VP9_QUALITY(enc),
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
    opaque: (size, _frames, enc) => {
      const profile = enc.proresProfile ?? 'hq';
      // Profiles 0-3 are 4:2:2; 4444 keeps full chroma.
      const pixFmt = profile === '4444' ? 'yuv444p10le' : 'yuv422p10le';
      const pad = profile !== '4444' && size.width % 2 ? EVEN_WIDTH : '';
      return [
        ...['-vf', `${pad}${toYuvFilters(size)}`],
        ...['-c:v', 'prores_ks', '-profile:v', PRORES_PROFILE_IDS[profile], '-pix_fmt', pixFmt],
        ...[...colourTags(size), ...MOVIE_TIMESCALE, '-f', 'mov'],
      ];
    },
    // ProRes 4444 (profile 4) is the ProRes flavour with an alpha channel.
    alpha: (size) => [
      ...['-vf', toYuvFilters(size)],
      ...['-c:v', 'prores_ks', '-profile:v', '4', '-pix_fmt', 'yuva444p10le'],
      ...[...colourTags(size), ...MOVIE_TIMESCALE, '-f', 'mov'],
    ],
  },
};

/** What an item's frames are handed to ffmpeg as: I420 for an opaque YUV 4:2:0 encoding, else RGBA. */
export function pictureInput(format: FfmpegFormat, alpha: boolean): PictureInput {
  const entry: FfmpegFormatArgs<FfmpegFormat> = FFMPEG_FORMATS[format];
  return entry.i420 && !(alpha && entry.alpha) ? 'i420' : 'rgba';
}

/**
 * The output arguments for one item: its alpha arguments when it renders RGB + Alpha and the format has them.
 * `input` defaults to RGBA (benchmarks' baselines feed ffmpeg RGBA).
 */
export function ffmpegOutputArgs(
  format: FfmpegFormat,
  alpha: boolean,
  size: FrameSize,
  frames: number,
  enc: Encoding = {},
  input: PictureInput = 'rgba',
  rate?: number,
): string[] {
  const entry: FfmpegFormatArgs<FfmpegFormat> = FFMPEG_FORMATS[format];
  if (input === 'i420' && pictureInput(format, alpha) !== 'i420')
    throw new RangeError(`ffmpegOutputArgs: ${format} does not take I420 frames here`);
  return alpha && entry.alpha
    ? entry.alpha(size, frames, enc, input, rate)
    : entry.opaque(size, frames, enc, input, rate);
}
