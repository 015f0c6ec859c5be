/**
 * RGB + Alpha for the ffmpeg formats: encoder arguments that keep the alpha channel of the straight-alpha RGBA
 * the workers deliver. Kept apart from the opaque arguments (video.ts) so those stay exactly as they are.
 */
import type { FrameSize } from './types.js';
import type { VideoFormat } from './video.js';
import { VP9_QUALITY } from './codec-options.js';

/** Formats whose ffmpeg encoder can carry alpha; mp4 (H.264) cannot. */
export type AlphaVideoFormat = Exclude<VideoFormat, 'mp4'>;

// VP9 wants even sizes too; the padding must be transparent, not the pad filter's opaque black.
const EVEN_CLEAR = 'pad=ceil(iw/2)*2:ceil(ih/2)*2:color=black@0';
// Same budget as the opaque GIF: above it, one palette per frame instead of one for the whole clip.
const PALETTE_BUDGET_BYTES = 512 * 1024 * 1024;

/** ffmpeg output arguments (after the raw RGBA input) that keep alpha. */
export function alphaEncoderArgs(format: AlphaVideoFormat, size: FrameSize, frames: number): string[] {
  switch (format) {
    case 'webm':
      return [
        '-vf',
        EVEN_CLEAR,
        ...VP9_QUALITY,
        // libvpx encodes alpha as a second stream; alternate reference frames break it in some versions.
        '-auto-alt-ref',
        '0',
        '-pix_fmt',
        'yuva420p',
        '-f',
        'webm',
      ];
    case 'mov':
      // ProRes 4444 (profile 4) is the ProRes flavour with an alpha channel.
      return ['-c:v', 'prores_ks', '-profile:v', '4', '-pix_fmt', 'yuva444p10le', '-f', 'mov'];
    case 'gif': {
      // GIF alpha is 1-bit: one palette entry is kept for "transparent", pixels below half opacity use it.
      const whole = size.width * size.height * 4 * frames <= PALETTE_BUDGET_BYTES;
      const graph = whole
        ? 'split[a][b];[a]palettegen=stats_mode=full:reserve_transparent=1[p];[b][p]paletteuse=alpha_threshold=128'
        : 'split[a][b];[a]palettegen=stats_mode=single:reserve_transparent=1[p];[b][p]paletteuse=new=1:alpha_threshold=128';
      return ['-filter_complex', graph, '-loop', '0', '-f', 'gif'];
    }
    case 'webp-anim':
      // libwebp takes bgra and encodes the alpha plane losslessly next to the lossy colour.
      // Full key frames as for opaque webp-anim (video.ts: libwebp_anim leaves trails); the exporter then marks
      // every frame "do not blend" (webp-frames.ts), or transparent pixels would show earlier frames.
      return ['-c:v', 'libwebp', '-quality', '85', '-pix_fmt', 'bgra', '-loop', '0', '-f', 'webp'];
  }
}
