/**
 * The most pixels an image file may have, and its header read regardless. sharp refuses to open an image past its
 * pixel limit, even for its header, so a 20000x20000 PNG of 390 KB (a decompression bomb, or a real scan) was
 * "not an image EffectCraft can read" with the remedy to import a PNG, which it was; and a sequence frame of that
 * size was "not a readable image" where one of 80x48 says it is not the sequence's size.
 */
import { basename } from 'node:path';
import type { Metadata } from 'sharp';
import { EngineError } from '../engine/errors.js';
import { sharpModule } from './sharp-module.js';

/** sharp's own default limit (0x3FFF squared, 268 MP): past it, decoding would take gigabytes. */
export const MAX_IMAGE_PIXELS = 0x3fff * 0x3fff;

/**
 * An image's header: sharp reads no pixels for it, so the pixel limit is lifted here (the caller refuses past it
 * with `tooManyPixels`, now knowing the size). Rejects as sharp does on a file that is not an image.
 */
export async function imageHeader(input: Buffer | string): Promise<Metadata> {
  const sharp = await sharpModule();
  return sharp(input, { animated: false, limitInputPixels: false }).metadata();
}

/** The error for an image of `width` x `height` past MAX_IMAGE_PIXELS, or null when it is within it. */
export function tooManyPixels(path: string, width: number, height: number): EngineError | null {
  if (width * height <= MAX_IMAGE_PIXELS) return null;
  const name = basename(path);
  const mp = Math.round((width * height) / 1e6);
  return new EngineError(
    'unsupported_format',
    `"${name}" is ${width}x${height} (${mp} megapixels); EffectCraft reads images of at most 268 megapixels (16383x16383), as decoding more takes gigabytes.`,
    `Export it again smaller, or scale it down with a tool that reads images this large, e.g. vipsthumbnail "${name}" --size 8192 -o smaller.png (ffmpeg refuses them too), and use that.`,
  );
}
