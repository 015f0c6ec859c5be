/**
 * Scrub-cache frames are JPEGs decoded by Skia into a canvas (jpegCanvas): the pixels sharp decodes, a reused
 * canvas keeps nothing of its last frame, and a JPEG of another size or none at all is refused, so the caller
 * decodes the exact frame instead.
 */
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegCanvas } from '../../../../src/render/media/frame-store.js';

const W = 64;
const H = 48;

/** A JPEG of a gradient with a red square, 4:2:0 like the scrub cache's. */
async function testJpeg(): Promise<Buffer> {
  const rgb = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      const square = x >= 20 && x < 36 && y >= 10 && y < 26;
      rgb[i] = square ? 230 : x * 4;
      rgb[i + 1] = square ? 20 : y * 5;
      rgb[i + 2] = square ? 30 : 128;
    }
  return sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 90, chromaSubsampling: '4:2:0' })
    .toBuffer();
}

describe('jpegCanvas', () => {
  it('gives the pixels sharp decodes, opaque, replacing all of a reused canvas', async () => {
    const jpeg = await testJpeg();
    const expected = await sharp(jpeg).ensureAlpha().raw().toBuffer();
    const spare = createCanvas(W, H);
    const sctx = spare.getContext('2d');
    sctx.fillStyle = 'rgba(0, 255, 0, 0.5)';
    sctx.fillRect(0, 0, W, H);
    const canvas = await jpegCanvas(jpeg, W, H, spare);
    expect(canvas).toBe(spare);
    const got = canvas!.getContext('2d').getImageData(0, 0, W, H).data;
    let worst = 0;
    for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i]! - expected[i]!));
    expect(worst).toBeLessThanOrEqual(1);
    for (let i = 3; i < got.length; i += 4) expect(got[i]).toBe(255);
  });

  it('takes a new canvas when the spare has another size', async () => {
    const spare = createCanvas(8, 8);
    const canvas = await jpegCanvas(await testJpeg(), W, H, spare);
    expect(canvas).not.toBe(spare);
    expect([canvas!.width, canvas!.height]).toEqual([W, H]);
  });

  it('refuses a JPEG of another size, and rejects bytes that are no image', async () => {
    expect(await jpegCanvas(await testJpeg(), W * 2, H)).toBeNull();
    await expect(jpegCanvas(Buffer.from('not a jpeg at all'), W, H)).rejects.toThrow();
  });
});
