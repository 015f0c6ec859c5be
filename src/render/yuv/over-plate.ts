/**
 * Graphics over a footage plate, in YUV (assembly/i420-over.ts): the frame of the bottom video layer as its
 * decoder gave it, turned into the output's colour if it is stored otherwise, with the layers above it blended
 * on. The result is the I420 frame the encoder takes, without the plate ever going through RGB.
 */
import { i420Coefficients, LUMA_WEIGHTS, type YuvMatrix } from './i420.js';
import { FRAME_BASE, wasmKernel, type KernelMemory } from './kernel.js';

/** How a plate's samples are stored: its matrix, and limited ("tv", 16-235) or full ("pc") range. */
export interface PlateColour {
  matrix: YuvMatrix;
  range: 'tv' | 'pc';
}

interface Kernel extends KernelMemory {
  over(
    gfx: number,
    gfxStride: number,
    yPlane: number,
    uPlane: number,
    vPlane: number,
    lumaStride: number,
    width: number,
    height: number,
    ...coefficients: number[]
  ): void;
  retag(plate: number, width: number, height: number, ...transform: number[]): void;
}

/**
 * Premultiplied RGBA graphics covering a rectangle of the frame (`x`, `y`, `width`, `height` all even, so
 * every 2x2 chroma block is wholly in or out): the whole frame, or each part of it that has any alpha.
 */
export interface GraphicsRect {
  x: number;
  y: number;
  width: number;
  height: number;
  rgba: Uint8Array;
}

const kernel = wasmKernel<Kernel>('./i420-over.wasm');

/** RGB (0..1) of normalised Y (0..1) and chroma (-0.5..0.5) in `matrix`. */
function toRgb(matrix: YuvMatrix, y: number, u: number, v: number): [number, number, number] {
  const { kr, kb } = LUMA_WEIGHTS[matrix];
  const r = y + 2 * (1 - kr) * v;
  const b = y + 2 * (1 - kb) * u;
  return [r, (y - kr * r - kb * b) / (1 - kr - kb), b];
}

function toYuv(matrix: YuvMatrix, [r, g, b]: [number, number, number]): [number, number, number] {
  const { kr, kb } = LUMA_WEIGHTS[matrix];
  const y = kr * r + (1 - kr - kb) * g + kb * b;
  return [y, (b - y) / (2 * (1 - kb)), (r - y) / (2 * (1 - kr))];
}

/**
 * The kernel's `retag` arguments turning samples stored as `from` into limited-range `to` ([y0, ty, tyu, tyv,
 * tuu, tuv, tvu, tvv], Q15), or null when they are already so. The map is linear in (Y - y0, U - 128, V - 128);
 * its columns are the images of the unit vectors.
 */
export function plateTransform(from: PlateColour, to: YuvMatrix): number[] | null {
  if (from.matrix === to && from.range === 'tv') return null;
  const ys = from.range === 'tv' ? 1 / 219 : 1 / 255;
  const cs = from.range === 'tv' ? 1 / 224 : 1 / 255;
  const column = (y: number, u: number, v: number) => toYuv(to, toRgb(from.matrix, y, u, v));
  const [cy, cu, cv] = [column(ys, 0, 0), column(0, cs, 0), column(0, 0, cs)];
  const q = (v: number) => Math.round(v * 32768);
  // Out: Y' = 16 + 219 y, C' = 128 + 224 c. Chroma never takes luma (cy[1], cy[2] are 0 up to rounding).
  return [
    from.range === 'tv' ? 16 : 0,
    ...[q(219 * cy[0]), q(219 * cu[0]), q(219 * cv[0])],
    ...[q(224 * cu[1]), q(224 * cv[1]), q(224 * cu[2]), q(224 * cv[2])],
  ];
}

/**
 * Writes to `out` the I420 frame of `plate` (I420, `width` x `height`, both even, stored as `transform` says:
 * plateTransform) with `graphics` over it (disjoint rectangles; everywhere else the frame has no graphics), in
 * the limited-range `matrix`.
 */
export function overPlate(
  plate: Uint8Array,
  graphics: readonly GraphicsRect[],
  width: number,
  height: number,
  transform: number[] | null,
  matrix: YuvMatrix,
  out: Uint8Array,
): void {
  const bytes = width * height * 1.5;
  if (width % 2 || height % 2 || plate.byteLength !== bytes || out.byteLength !== bytes)
    throw new RangeError(`overPlate: buffers do not fit a ${width}x${height} frame`);
  for (const r of graphics) {
    const even = r.x % 2 === 0 && r.y % 2 === 0 && r.width % 2 === 0 && r.height % 2 === 0;
    const inside = r.x >= 0 && r.y >= 0 && r.x + r.width <= width && r.y + r.height <= height;
    if (!even || !inside || r.rgba.byteLength !== r.width * r.height * 4)
      throw new RangeError(
        `overPlate: graphics at ${r.x},${r.y} (${r.width}x${r.height}) do not fit the frame`,
      );
  }
  if (!transform) return overInBands(plate, graphics, width, height, matrix, out);
  const gfxBytes = graphics.reduce((n, r) => n + r.rgba.byteLength, 0);
  const k = kernel.withRoom(bytes + gfxBytes);
  const mem = new Uint8Array(k.memory.buffer);
  mem.set(plate, FRAME_BASE);
  k.retag(FRAME_BASE, width, height, ...transform);
  const uPlane = FRAME_BASE + width * height;
  const vPlane = uPlane + (width * height) / 4;
  const coefficients = i420Coefficients(matrix);
  let gfx = FRAME_BASE + bytes;
  for (const r of graphics) {
    mem.set(r.rgba, gfx);
    const chroma = (r.y / 2) * (width / 2) + r.x / 2;
    k.over(
      ...[gfx, r.width * 4],
      ...[FRAME_BASE + r.y * width + r.x, uPlane + chroma, vPlane + chroma, width],
      ...[r.width, r.height, ...coefficients],
    );
    gfx += r.rgba.byteLength;
  }
  out.set(mem.subarray(FRAME_BASE, FRAME_BASE + bytes));
}

/**
 * A plate already in the output's colour: copied to `out` once, and only the rows each rectangle covers go
 * through the kernel's memory (a band of whole rows is one contiguous run of each plane). Moving the whole frame
 * in and out of the kernel was two more 3 MB copies a 1080p frame, for graphics that cover a fifth of it or less.
 * Rectangles are disjoint but may share rows, so each band is read from `out` after the one before was written.
 */
function overInBands(
  plate: Uint8Array,
  graphics: readonly GraphicsRect[],
  width: number,
  height: number,
  matrix: YuvMatrix,
  out: Uint8Array,
): void {
  out.set(plate);
  if (!graphics.length) return;
  const coefficients = i420Coefficients(matrix);
  const planes = [
    { at: 0, rowBytes: width, shift: 0 },
    { at: width * height, rowBytes: width / 2, shift: 1 },
    { at: (width * height * 5) / 4, rowBytes: width / 2, shift: 1 },
  ];
  for (const r of graphics) {
    // Where each plane's band starts in `out` and in the kernel's memory, and its length.
    const bands = planes.map(({ at, rowBytes, shift }) => ({
      from: at + (r.y >> shift) * rowBytes,
      bytes: (r.height >> shift) * rowBytes,
    }));
    const bandBytes = bands.reduce((n, b) => n + b.bytes, 0);
    const k = kernel.withRoom(bandBytes + r.rgba.byteLength);
    const mem = new Uint8Array(k.memory.buffer);
    let to = FRAME_BASE;
    const placed = bands.map((b) => {
      const at = to;
      mem.set(out.subarray(b.from, b.from + b.bytes), at);
      to += b.bytes;
      return at;
    });
    const gfx = to;
    mem.set(r.rgba, gfx);
    k.over(
      ...[gfx, r.width * 4],
      ...[placed[0]! + r.x, placed[1]! + r.x / 2, placed[2]! + r.x / 2, width],
      ...[r.width, r.height, ...coefficients],
    );
    bands.forEach((b, i) => out.set(mem.subarray(placed[i]!, placed[i]! + b.bytes), b.from));
  }
}
