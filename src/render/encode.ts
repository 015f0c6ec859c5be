/**
 * The one still-image encoder: rendered RGBA to PNG, JPEG or WebP with sharp, for frame.preview/frame.save
 * (main thread) and for image sequences (inside the render workers, so compression uses every core); and
 * the one un-premultiply, for straight-alpha RGBA handed to ffmpeg. Renderers may hand back premultiplied
 * RGBA (Skia's native form); image files want straight alpha.
 */
import {
  EngineError,
  formatSpec,
  listWords,
  STILL_FORMATS,
  type StillEncoding,
  type StillFormat,
} from '../engine/core.js';
import type { RenderedFrame } from './types.js';
import type { FramePayload } from './payload.js';
import { sharpModule } from './sharp-module.js';

export { STILL_FORMATS, type StillFormat } from '../engine/core.js';
export { oneEncoderThread } from './sharp-module.js';

export type { FramePayload } from './payload.js';

export interface EncodeOptions {
  /** zlib level 0-9 (default: the png format's, 6). Level 1 is about twice as fast and a little bigger. */
  pngLevel?: number;
  /** JPEG/WebP quality 1-100 (default: the format's, 90). */
  quality?: number;
}

/** Un-premultiplies in place; opaque pixels (the common case: frames are flattened) are left alone. */
export function unpremultiply(rgba: Uint8Array): void {
  for (let i = 3; i < rgba.length; i += 4) {
    const a = rgba[i]!;
    if (a === 255) continue;
    if (a === 0) {
      rgba[i - 3] = rgba[i - 2] = rgba[i - 1] = 0;
      continue;
    }
    const f = 255 / a;
    rgba[i - 3] = Math.min(255, Math.round(rgba[i - 3]! * f));
    rgba[i - 2] = Math.min(255, Math.round(rgba[i - 2]! * f));
    rgba[i - 1] = Math.min(255, Math.round(rgba[i - 1]! * f));
  }
}

/** Straight-alpha pixels of a frame: its own buffer when already straight, else an un-premultiplied copy. */
export function straightRgba(frame: Pick<RenderedFrame, 'rgba' | 'premultiplied'>): Buffer {
  if (!frame.premultiplied) return frame.rgba;
  const copy = Buffer.from(frame.rgba);
  unpremultiply(copy);
  return copy;
}

/**
 * Encodes RGBA as the payload asks. Image encoders un-premultiply natively (sharp's `premultiplied` input);
 * `rgba` payloads are the frame's own buffer, made straight in place.
 */
export async function encodeFrame(
  rgba: Buffer,
  width: number,
  height: number,
  premultiplied: boolean,
  payload: FramePayload,
): Promise<Buffer> {
  if (payload.kind === 'i420')
    throw new RangeError('encodeFrame: I420 frames are converted by the render worker (yuv/i420.ts)');
  if (payload.kind === 'rgba') {
    // The frame's pixels are the caller's own (RenderedFrame.rgba): un-premultiplied in place, never copied (a
    // copy is 8 MB at 1080p, and the allocation drives the garbage collector).
    if (premultiplied) unpremultiply(rgba);
    return rgba;
  }
  // Our own raw frames: sharp's pixel limit (0x3FFF squared) guards against hostile files, not these.
  const sharp = await sharpModule();
  const img = sharp(rgba, { raw: { width, height, channels: 4, premultiplied }, limitInputPixels: false });
  switch (payload.kind) {
    case 'png':
      // Adaptive filtering costs more time than it saves bytes on rendered graphics.
      return img.png({ compressionLevel: payload.level, adaptiveFiltering: false }).toBuffer();
    case 'jpeg':
      // JPEG has no alpha: composite over black rather than let the encoder drop it unpredictably.
      return img
        .flatten({ background: '#000000' })
        .jpeg({ quality: payload.quality, mozjpeg: false })
        .toBuffer();
    case 'webp':
      return img.webp({ quality: payload.quality }).toBuffer();
  }
}

/** A still format's encoding: the format table's settings, with `options` overriding level or quality. */
export function stillEncoding(format: StillFormat, options: EncodeOptions = {}): StillEncoding {
  const encoding = STILL_FORMATS.includes(format) ? formatSpec(format).encoder : 'ffmpeg';
  if (typeof encoding === 'string')
    throw new EngineError(
      'unsupported_format',
      `Cannot encode "${String(format)}" stills.`,
      `Use ${listWords(STILL_FORMATS)}.`,
    );
  return encoding.kind === 'png'
    ? { kind: 'png', level: options.pngLevel ?? encoding.level }
    : { kind: encoding.kind, quality: options.quality ?? encoding.quality };
}

/** Encodes a frame as a PNG, JPEG or WebP still (the format table's settings unless `options` say otherwise). */
export async function encodeStill(
  frame: Pick<RenderedFrame, 'width' | 'height' | 'rgba' | 'premultiplied'>,
  format: StillFormat,
  options: EncodeOptions = {},
): Promise<Buffer> {
  return encodeFrame(
    frame.rgba,
    frame.width,
    frame.height,
    frame.premultiplied,
    stillEncoding(format, options),
  );
}
