import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { encodeFrame, unpremultiply } from '../../../src/render/encode.js';

// One opaque pixel and one half-transparent red pixel, premultiplied (Skia's form): 128/255 alpha, red 128.
const premul = () => Buffer.from([10, 20, 30, 255, 128, 0, 0, 128]);

describe('frame encoding', () => {
  it('un-premultiplies translucent pixels and leaves opaque ones alone', () => {
    const px = premul();
    unpremultiply(px);
    expect([...px]).toEqual([10, 20, 30, 255, 255, 0, 0, 128]);
  });

  it('raw payloads are the frame buffer itself, made straight in place (no 8 MB copy per frame)', async () => {
    const src = premul();
    const out = await encodeFrame(src, 2, 1, true, { kind: 'rgba' });
    expect([...out]).toEqual([10, 20, 30, 255, 255, 0, 0, 128]);
    expect(out).toBe(src);
  });

  it('PNGs of premultiplied frames decode to straight alpha', async () => {
    const png = await encodeFrame(premul(), 2, 1, true, { kind: 'png', level: 6 });
    const { data } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 4)]).toEqual([10, 20, 30, 255]);
    expect(data[4]).toBeGreaterThanOrEqual(254);
    expect(data[7]).toBe(128);
  });
});
