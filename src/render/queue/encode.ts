/**
 * Frame pixels to file bytes, run inside the render workers so compression uses every core.
 * Renderers may hand back premultiplied RGBA (Skia's native form); image files want straight alpha.
 */
import sharp from 'sharp';

/** How workers deliver a frame: encoded image bytes, or straight-alpha RGBA for a streaming encoder. */
export type FramePayload =
  | { kind: 'png'; level: number }
  | { kind: 'jpeg'; quality: number }
  | { kind: 'webp'; quality: number }
  | { kind: 'rgba' };

// libvips would start a thread pool per worker; one thread each keeps the cores for the worker threads.
sharp.concurrency(1);

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

/**
 * Encodes RGBA as the payload asks. Image encoders un-premultiply natively (sharp's `premultiplied` input);
 * `rgba` payloads get a straight-alpha copy (the renderer may reuse its buffer for the next frame).
 */
export async function encodeFrame(
  rgba: Buffer,
  width: number,
  height: number,
  premultiplied: boolean,
  payload: FramePayload,
): Promise<Buffer> {
  if (payload.kind === 'rgba') {
    const copy = Buffer.from(rgba);
    if (premultiplied) unpremultiply(copy);
    return copy;
  }
  // Our own raw frames: sharp's pixel limit (0x3FFF squared) guards against hostile files, not these.
  const img = sharp(rgba, { raw: { width, height, channels: 4, premultiplied }, limitInputPixels: false });
  switch (payload.kind) {
    case 'png':
      // Adaptive filtering costs more time than it saves bytes on rendered graphics.
      return img.png({ compressionLevel: payload.level, adaptiveFiltering: false }).toBuffer();
    case 'jpeg':
      return img.flatten().jpeg({ quality: payload.quality, mozjpeg: false }).toBuffer();
    case 'webp':
      return img.webp({ quality: payload.quality }).toBuffer();
  }
}
