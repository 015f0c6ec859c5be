// Graphics over a footage plate in YUV (the render workers' path for a video at the bottom of a composition):
// checked against an independent float reference that does it the long way, through RGB: the plate's samples
// to RGB with their own matrix and range, the premultiplied graphics composited over them, and the result back
// to limited-range YUV (chroma of each 2x2 block from the average colour). Random plates and graphics, sizes
// that exercise the SIMD steps and the scalar tail.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { YuvMatrix } from '../../../src/render/yuv/i420.js';
import {
  overPlate,
  plateTransform,
  type GraphicsRect,
  type PlateColour,
} from '../../../src/render/yuv/over-plate.js';
import { tempDir } from '../../helpers/tmp.js';
import { WEIGHTS, yuvOf, type Rgb } from '../../helpers/yuv-reference.js';

const exec = promisify(execFile);

/** RGB (0..255, unclamped) of one stored sample. */
function rgbOf(y: number, u: number, v: number, { matrix, range }: PlateColour): Rgb {
  const [kr, kb] = WEIGHTS[matrix];
  const yn = range === 'tv' ? (y - 16) / 219 : y / 255;
  const [un, vn] = range === 'tv' ? [(u - 128) / 224, (v - 128) / 224] : [(u - 128) / 255, (v - 128) / 255];
  const r = yn + 2 * (1 - kr) * vn;
  const b = yn + 2 * (1 - kb) * un;
  return [255 * r, (255 * (yn - kr * r - kb * b)) / (1 - kr - kb), 255 * b];
}

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) >>> 0) >>> 24;
}

/** Plausible stored samples: luma and chroma inside the range (a plate from a decoder). */
function randomPlate(w: number, h: number, seed: number, range: 'tv' | 'pc'): Uint8Array {
  const next = random(seed);
  const plate = new Uint8Array(w * h * 1.5);
  const [lo, hi, clo, chi] = range === 'tv' ? [16, 235, 40, 216] : [0, 255, 30, 226];
  for (let i = 0; i < plate.length; i++) {
    const [a, b] = i < w * h ? [lo, hi] : [clo, chi];
    plate[i] = a + (next() % (b - a + 1));
  }
  return plate;
}

/** Premultiplied RGBA with a mix of transparent, opaque and translucent pixels, in runs (as graphics are). */
function randomGraphics(w: number, h: number, seed: number): Uint8Array {
  const next = random(seed);
  const px = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const kind = Math.floor(i / 5) % 3;
    const a = kind === 0 ? 0 : kind === 1 ? 255 : next();
    for (let c = 0; c < 3; c++) px[i * 4 + c] = Math.round((next() * a) / 255);
    px[i * 4 + 3] = a;
  }
  return px;
}

/** Graphics covering the whole `w` x `h` frame, or none. */
function whole(gfx: Uint8Array | null, w: number, h: number): GraphicsRect[] {
  return gfx ? [{ x: 0, y: 0, width: w, height: h, rgba: gfx }] : [];
}

/** The part of frame-sized graphics `gfx` (frame width `w`) inside a rectangle, as a GraphicsRect. */
function cut(gfx: Uint8Array, w: number, x: number, y: number, width: number, height: number): GraphicsRect {
  const rgba = new Uint8Array(width * height * 4);
  for (let r = 0; r < height; r++)
    rgba.set(gfx.subarray(((y + r) * w + x) * 4, ((y + r) * w + x + width) * 4), r * width * 4);
  return { x, y, width, height, rgba };
}

/** The long way round: through RGB in floating point. */
function reference(
  plate: Uint8Array,
  gfx: Uint8Array | null,
  w: number,
  h: number,
  from: PlateColour,
  to: YuvMatrix,
): { y: Float64Array; u: Float64Array; v: Float64Array } {
  const y = new Float64Array(w * h);
  const u = new Float64Array((w * h) / 4);
  const v = new Float64Array((w * h) / 4);
  for (let by = 0; by < h / 2; by++)
    for (let bx = 0; bx < w / 2; bx++) {
      const c = by * (w / 2) + bx;
      const sum: Rgb = [0, 0, 0];
      for (let k = 0; k < 4; k++) {
        const px = (by * 2 + (k >> 1)) * w + bx * 2 + (k & 1);
        const under = rgbOf(plate[px]!, plate[w * h + c]!, plate[w * h * 1.25 + c]!, from);
        const a = gfx ? gfx[px * 4 + 3]! / 255 : 0;
        const out = under.map((p, i) => (gfx ? gfx[px * 4 + i]! : 0) + (1 - a) * p) as Rgb;
        y[px] = yuvOf(out, to)[0];
        for (let i = 0; i < 3; i++) sum[i] = sum[i]! + out[i]! / 4;
      }
      [, u[c], v[c]] = yuvOf(sum, to);
    }
  return { y, u, v };
}

function worstError(w: number, h: number, from: PlateColour, to: YuvMatrix, withGraphics: boolean): number {
  const plate = randomPlate(w, h, w * 7 + h, from.range);
  const gfx = withGraphics ? randomGraphics(w, h, w + h * 3) : null;
  const out = new Uint8Array(plate.length);
  overPlate(plate, whole(gfx, w, h), w, h, plateTransform(from, to), to, out);
  const ref = reference(plate, gfx, w, h, from, to);
  const want = [...ref.y, ...ref.u, ...ref.v].map((x) => Math.min(255, Math.max(0, x)));
  return Math.max(...want.map((x, i) => Math.abs(out[i]! - x)));
}

describe('graphics over a footage plate in YUV', () => {
  it('blends premultiplied graphics over a plate of the output matrix within a level of the RGB reference', () => {
    for (const [w, h] of [
      [64, 4],
      [70, 6],
      [2, 2],
      [18, 10],
    ] as const) {
      expect(worstError(w, h, { matrix: 'bt709', range: 'tv' }, 'bt709', true)).toBeLessThanOrEqual(1);
      expect(worstError(w, h, { matrix: 'smpte170m', range: 'tv' }, 'smpte170m', true)).toBeLessThanOrEqual(
        1,
      );
    }
  });

  it('turns a plate of another matrix or of full range into the output matrix first', () => {
    for (const from of [
      { matrix: 'smpte170m', range: 'tv' },
      { matrix: 'bt709', range: 'pc' },
      { matrix: 'smpte170m', range: 'pc' },
    ] as const) {
      for (const [w, h] of [
        [64, 4],
        [22, 6],
      ] as const) {
        // Retagging uses each block's chroma for its four luma samples, as a 4:2:0 picture has nothing finer.
        expect(worstError(w, h, from, 'bt709', false)).toBeLessThanOrEqual(1);
        expect(worstError(w, h, from, 'bt709', true)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('leaves the plate exactly as it is where the graphics are transparent, and copies it without any', () => {
    const [w, h] = [40, 4];
    const plate = randomPlate(w, h, 3, 'tv');
    const out = new Uint8Array(plate.length);
    overPlate(plate, whole(new Uint8Array(w * h * 4), w, h), w, h, null, 'bt709', out);
    expect(Buffer.compare(out, plate)).toBe(0);
    out.fill(0);
    overPlate(plate, [], w, h, null, 'bt709', out);
    expect(Buffer.compare(out, plate)).toBe(0);
  });

  it('covers the plate entirely under opaque graphics: the result is the graphics alone', () => {
    const [w, h] = [16, 2];
    const plate = randomPlate(w, h, 5, 'tv');
    const gfx = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) gfx.set([0xe9, 0x45, 0x60, 255], i * 4);
    const out = new Uint8Array(plate.length);
    overPlate(plate, whole(gfx, w, h), w, h, null, 'bt709', out);
    const [y, u, v] = yuvOf([0xe9, 0x45, 0x60], 'bt709').map(Math.round);
    expect([...new Set(out.subarray(0, w * h))]).toEqual([y]);
    expect([...new Set(out.subarray(w * h, w * h * 1.25))]).toEqual([u]);
    expect([...new Set(out.subarray(w * h * 1.25))]).toEqual([v]);
  });

  it('has no transform for a plate already in the output colour, and keeps greys grey otherwise', () => {
    expect(plateTransform({ matrix: 'bt709', range: 'tv' }, 'bt709')).toBeNull();
    const t = plateTransform({ matrix: 'smpte170m', range: 'pc' }, 'bt709')!;
    const plate = new Uint8Array([0, 128, 255, 64, 128, 128]);
    const out = new Uint8Array(6);
    overPlate(plate, [], 2, 2, t, 'bt709', out);
    // Full-range 0, 128, 255 and 64 are limited-range 16, 126 (rounded), 235 and 71; the chroma stays 128.
    expect([...out]).toEqual([
      16,
      Math.round(16 + (128 * 219) / 255),
      235,
      Math.round(16 + (64 * 219) / 255),
      128,
      128,
    ]);
  });

  it('blends rectangles of graphics exactly as the whole frame with nothing outside them', () => {
    const [w, h] = [72, 12];
    for (const transform of [null, plateTransform({ matrix: 'smpte170m', range: 'tv' }, 'bt709')]) {
      const plate = randomPlate(w, h, 11, 'tv');
      const gfx = randomGraphics(w, h, 13);
      // Two rectangles: one with a SIMD step and a scalar tail at an odd block offset, one at the right edge.
      const rects = [cut(gfx, w, 6, 2, 26, 6), cut(gfx, w, 60, 4, 12, 8)];
      const inside = new Uint8Array(w * h * 4);
      for (const r of rects)
        for (let y = 0; y < r.height; y++)
          inside.set(r.rgba.subarray(y * r.width * 4, (y + 1) * r.width * 4), ((r.y + y) * w + r.x) * 4);
      const [byRects, byFrame] = [new Uint8Array(plate.length), new Uint8Array(plate.length)];
      overPlate(plate, rects, w, h, transform, 'bt709', byRects);
      overPlate(plate, whole(inside, w, h), w, h, transform, 'bt709', byFrame);
      expect(Buffer.compare(byRects, byFrame)).toBe(0);
      // And the rectangles did blend: the plate (retagged or not) differs under them.
      const bare = new Uint8Array(plate.length);
      overPlate(plate, [], w, h, transform, 'bt709', bare);
      expect(Buffer.compare(byRects, bare)).not.toBe(0);
    }
  });

  it('refuses buffers that do not fit the frame', () => {
    expect(() => overPlate(new Uint8Array(6), [], 2, 2, null, 'bt709', new Uint8Array(5))).toThrow(
      RangeError,
    );
    expect(() => overPlate(new Uint8Array(9), [], 3, 2, null, 'bt709', new Uint8Array(9))).toThrow(
      RangeError,
    );
    expect(() =>
      overPlate(new Uint8Array(6), whole(new Uint8Array(4), 2, 2), 2, 2, null, 'bt709', new Uint8Array(6)),
    ).toThrow(RangeError);
    const frame = () => [new Uint8Array(24), new Uint8Array(24)] as const;
    const [plate, out] = frame();
    const rect = (x: number, y: number, width: number, height: number) => ({
      x,
      y,
      width,
      height,
      rgba: new Uint8Array(width * height * 4),
    });
    // An odd corner, and a rectangle reaching past the 4x4 frame.
    expect(() => overPlate(plate, [rect(1, 0, 2, 2)], 4, 4, null, 'bt709', out)).toThrow(RangeError);
    expect(() => overPlate(plate, [rect(2, 2, 4, 2)], 4, 4, null, 'bt709', out)).toThrow(RangeError);
  });

  it('the committed WebAssembly is the compiled source (npm run build:wasm)', async () => {
    const dir = await tempDir();
    const src = 'src/render/yuv/assembly';
    const out = join(dir, 'kernel.wasm');
    await exec('node_modules/.bin/asc', [
      ...[`${src}/i420-over.ts`, '--config', `${src}/asconfig.json`, '-o', out],
    ]);
    expect(Buffer.compare(await readFile(out), await readFile('src/render/yuv/i420-over.wasm'))).toBe(0);
  }, 60_000);
});
