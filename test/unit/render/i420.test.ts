// The RGBA -> I420 conversion the render workers do for opaque MP4 and WebM: checked against the textbook
// formulas in floating point (an independent reference, not the kernel's fixed point), on random pixels at
// sizes that exercise the SIMD steps, the scalar tail and the padding of odd sizes.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { i420Size, rgbaToI420, type YuvMatrix } from '../../../src/render/yuv/i420.js';
import { tempDir } from '../../helpers/tmp.js';
import { yuvOf } from '../../helpers/yuv-reference.js';

const exec = promisify(execFile);

function randomRgba(width: number, height: number, seed: number): Uint8Array {
  const px = new Uint8Array(width * height * 4);
  let s = seed;
  for (let i = 0; i < px.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    px[i] = i % 4 === 3 ? 255 : s >>> 24;
  }
  return px;
}

function convert(rgba: Uint8Array, width: number, height: number, matrix: YuvMatrix = 'bt709') {
  const size = i420Size(width, height);
  const out = new Uint8Array(size.bytes);
  rgbaToI420(rgba, width, height, matrix, out);
  const luma = size.width * size.height;
  const chroma = luma / 4;
  return {
    ...size,
    y: out.subarray(0, luma),
    u: out.subarray(luma, luma + chroma),
    v: out.subarray(luma + chroma),
  };
}

/** The largest difference between the conversion and the float reference, over every sample. */
function worstError(rgba: Uint8Array, width: number, height: number, matrix: YuvMatrix): number {
  const got = convert(rgba, width, height, matrix);
  const px = (x: number, y: number) =>
    x < width && y < height ? [...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)] : [0, 0, 0];
  let worst = 0;
  for (let y = 0; y < got.height; y++)
    for (let x = 0; x < got.width; x++) {
      const [r, g, b] = px(x, y) as [number, number, number];
      worst = Math.max(worst, Math.abs(got.y[y * got.width + x]! - yuvOf([r, g, b], matrix)[0]));
    }
  for (let y = 0; y < got.height / 2; y++)
    for (let x = 0; x < got.width / 2; x++) {
      const block = [px(2 * x, 2 * y), px(2 * x + 1, 2 * y), px(2 * x, 2 * y + 1), px(2 * x + 1, 2 * y + 1)];
      const mean = [0, 1, 2].map((c) => block.reduce((sum, p) => sum + p[c]!, 0) / 4);
      const [, u, v] = yuvOf([mean[0]!, mean[1]!, mean[2]!], matrix);
      const i = y * (got.width / 2) + x;
      worst = Math.max(worst, Math.abs(got.u[i]! - u), Math.abs(got.v[i]! - v));
    }
  return worst;
}

describe('RGBA to I420', () => {
  // 64 wide: SIMD steps only; 42: a scalar tail of two columns; 37 x 23: odd, padded to 38 x 24.
  for (const [width, height] of [
    [64, 32],
    [42, 6],
    [37, 23],
    [2, 2],
  ] as const) {
    for (const matrix of ['bt709', 'smpte170m'] as const) {
      it(`${width}x${height}, ${matrix}: every sample within rounding of the formula`, () => {
        // Rounding to nearest leaves at most half a level; the fixed-point coefficients add a little more.
        expect(worstError(randomRgba(width, height, width * height), width, height, matrix)).toBeLessThan(
          0.75,
        );
      });
    }
  }

  it('maps the ends of the range and every grey exactly (no chroma for greys)', () => {
    const greys = [0, 1, 16, 127, 128, 200, 254, 255];
    const rgba = new Uint8Array(greys.flatMap((g) => [g, g, g, 255, g, g, g, 255]));
    const twice = new Uint8Array([...rgba, ...rgba]);
    const got = convert(twice, 16, 2);
    expect(got.y[0]).toBe(16);
    expect(got.y[15]).toBe(235);
    expect([...got.u]).toEqual(greys.map(() => 128));
    expect([...got.v]).toEqual(greys.map(() => 128));
  });

  it('#e94560 in BT.709 limited range', () => {
    const rgba = new Uint8Array(Array.from({ length: 4 }, () => [0xe9, 0x45, 0x60, 255]).flat());
    const got = convert(rgba, 2, 2);
    const [y, u, v] = yuvOf([0xe9, 0x45, 0x60], 'bt709').map(Math.round);
    expect([...got.y]).toEqual([y, y, y, y]);
    expect([got.u[0], got.v[0]]).toEqual([u, v]);
  });

  it('the scalar tail computes exactly what the SIMD steps do', () => {
    // 42 columns: 0-39 in SIMD steps, 40-41 in the tail; columns 40-41 repeat columns 8-9.
    const width = 42;
    const rgba = randomRgba(width, 4, 7);
    for (let y = 0; y < 4; y++)
      rgba.copyWithin((y * width + 40) * 4, (y * width + 8) * 4, (y * width + 10) * 4);
    const got = convert(rgba, width, 4);
    for (let y = 0; y < 4; y++)
      expect([...got.y.subarray(y * width + 40, y * width + 42)]).toEqual([
        ...got.y.subarray(y * width + 8, y * width + 10),
      ]);
    for (const plane of [got.u, got.v])
      for (let y = 0; y < 2; y++) expect(plane[y * 21 + 20]).toBe(plane[y * 21 + 4]);
  });

  it('pads odd sizes on the right and bottom with black, as the pad filter does', () => {
    const red = new Uint8Array(Array.from({ length: 9 }, () => [255, 0, 0, 255]).flat());
    const got = convert(red, 3, 3);
    expect([got.width, got.height]).toEqual([4, 4]);
    const redY = Math.round(yuvOf([255, 0, 0], 'bt709')[0]);
    expect([...got.y]).toEqual([
      ...[redY, redY, redY, 16],
      ...[redY, redY, redY, 16],
      ...[redY, redY, redY, 16],
      ...[16, 16, 16, 16],
    ]);
    // The bottom-right block is one red pixel and three black ones.
    expect(got.v[3]).toBe(Math.round(yuvOf([255 / 4, 0, 0], 'bt709')[2]));
  });

  it('refuses buffers that do not fit the frame', () => {
    expect(() => rgbaToI420(new Uint8Array(16), 2, 3, 'bt709', new Uint8Array(12))).toThrow(RangeError);
    expect(() => rgbaToI420(new Uint8Array(16), 2, 2, 'bt709', new Uint8Array(5))).toThrow(RangeError);
  });

  it('the committed WebAssembly is the compiled source (npm run build:wasm)', async () => {
    const dir = await tempDir();
    const src = 'src/render/yuv/assembly';
    const out = join(dir, 'kernel.wasm');
    await exec('node_modules/.bin/asc', [
      ...[`${src}/rgba-to-yuv420.ts`, '--config', `${src}/asconfig.json`, '-o', out],
    ]);
    expect(Buffer.compare(await readFile(out), await readFile('src/render/yuv/rgba-to-yuv420.wasm'))).toBe(0);
  }, 60_000);
});
