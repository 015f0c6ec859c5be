/**
 * Per-pixel operations Skia's CSS filters cannot express (tint, brightness/contrast curves, glow threshold,
 * luma mattes). They read straight-alpha pixels, change them in JS and write them back; used only by those
 * effects, never on the plain compositing path.
 */
import { ImageData, type Canvas } from '@napi-rs/canvas';

/** Rec. 709 luma weights, as After Effects' luminance. */
export const LUMA = [0.2126, 0.7152, 0.0722] as const;

/** Runs `fn` over the straight-alpha RGBA of `canvas` and writes the result back. */
export function mapPixels(canvas: Canvas, fn: (px: Uint8ClampedArray) => void): void {
  const ctx = canvas.getContext('2d');
  const img = ctx.getImageData(0, 0, canvas.width, canvas.height);
  fn(img.data);
  ctx.putImageData(img, 0, 0);
}

/** Applies one lookup table per colour channel (alpha untouched). */
export function applyLut(canvas: Canvas, lut: Uint8Array | Uint8ClampedArray): void {
  mapPixels(canvas, (px) => {
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3] === 0) continue;
      px[i] = lut[px[i]!]!;
      px[i + 1] = lut[px[i + 1]!]!;
      px[i + 2] = lut[px[i + 2]!]!;
    }
  });
}

/**
 * Replaces the canvas with an alpha mask from its luminance as composited over black (so transparent
 * areas count as black), inverted when asked: the track matte semantics of After Effects.
 */
export function lumaToAlpha(canvas: Canvas, invert: boolean): void {
  // data() is premultiplied: a premultiplied channel is the colour over black, which is what we want.
  const src = canvas.data();
  const out = new Uint8ClampedArray(src.length);
  for (let i = 0; i < src.length; i += 4) {
    const l = LUMA[0] * src[i]! + LUMA[1] * src[i + 1]! + LUMA[2] * src[i + 2]!;
    out[i + 3] = invert ? 255 - l : l;
  }
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.putImageData(new ImageData(out, canvas.width, canvas.height), 0, 0);
}
