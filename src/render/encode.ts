/** Encoding rendered frames to still images with sharp (raw RGBA in), and un-premultiplying for others. */
import type { RenderedFrame } from './types.js';
import { EngineError } from '../engine/index.js';

export const STILL_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type StillFormat = (typeof STILL_FORMATS)[number];

export interface EncodeOptions {
  /** zlib level 0-9 (default 6). Level 1 is about twice as fast and a little bigger. */
  pngLevel?: number;
  /** JPEG/WebP quality 1-100 (default 90). */
  quality?: number;
}

/** Encodes a frame as PNG, JPEG or WebP. Premultiplied frames are un-premultiplied by sharp on the way in. */
export async function encodeStill(
  frame: Pick<RenderedFrame, 'width' | 'height' | 'rgba' | 'premultiplied'>,
  format: StillFormat,
  options: EncodeOptions = {},
): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const img = sharp(frame.rgba, {
    raw: { width: frame.width, height: frame.height, channels: 4, premultiplied: frame.premultiplied },
    // A frame we rendered ourselves: sharp's pixel limit guards against hostile files, not these.
    limitInputPixels: false,
  });
  switch (format) {
    case 'png':
      return img.png({ compressionLevel: options.pngLevel ?? 6 }).toBuffer();
    case 'jpeg':
      // JPEG has no alpha: composite over black rather than let the encoder drop it unpredictably.
      return img
        .flatten({ background: '#000000' })
        .jpeg({ quality: options.quality ?? 90 })
        .toBuffer();
    case 'webp':
      return img.webp({ quality: options.quality ?? 90 }).toBuffer();
    default:
      throw new EngineError(
        'unsupported_format',
        `Cannot encode "${String(format)}" stills.`,
        'Use png, jpeg or webp.',
      );
  }
}

/** Straight-alpha copy of a frame's pixels (for encoders that want straight RGBA, e.g. ffmpeg rgba input). */
export function straightRgba(frame: Pick<RenderedFrame, 'rgba' | 'premultiplied'>): Buffer {
  if (!frame.premultiplied) return frame.rgba;
  const src = frame.rgba;
  const out = Buffer.allocUnsafe(src.length);
  for (let i = 0; i < src.length; i += 4) {
    const a = src[i + 3]!;
    out[i + 3] = a;
    if (a === 255 || a === 0) {
      out[i] = a ? src[i]! : 0;
      out[i + 1] = a ? src[i + 1]! : 0;
      out[i + 2] = a ? src[i + 2]! : 0;
    } else {
      out[i] = Math.min(255, Math.round((src[i]! * 255) / a));
      out[i + 1] = Math.min(255, Math.round((src[i + 1]! * 255) / a));
      out[i + 2] = Math.min(255, Math.round((src[i + 2]! * 255) / a));
    }
  }
  return out;
}
