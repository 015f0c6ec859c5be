/**
 * RGBA frames to I420 (planar YUV 4:2:0) for the encoders that take it (H.264, H.265, VP9 without alpha):
 * the render worker converts, so ffmpeg gets 3 MB a 1080p frame instead of 8 MB and spends none of its
 * single main thread on swscale (see assembly/rgba-to-yuv420.ts for the kernel and why it is ours).
 *
 * Limited range ("tv", 16-235 luma) with the matrix the file's tags state (video-colour.ts); chroma is the
 * average of each 2x2 block. Odd sizes are padded on the right and bottom with black, as ffmpeg's pad filter
 * pads them on the RGBA path. The kernel's memory is per thread: each worker converts its own frames.
 */
import type { I420Target } from '../types.js';
import { FRAME_BASE, wasmKernel, type KernelMemory } from './kernel.js';

export type YuvMatrix = 'bt709' | 'smpte170m';

/** Frames this tall or taller are HD, and take the BT.709 matrix when nothing else says which. */
export const HD_MIN_HEIGHT = 720;

/**
 * The matrix of a video this tall when nothing else says which: BT.709 for HD, BT.601 (SMPTE 170M) below, as
 * broadcasters deliver them and as players guess for untagged files. Both directions use it: the matrix our
 * renders are encoded and tagged with (video-colour.ts), and the one an untagged clip is read with (so it looks
 * as it does in the player it came from, and an HD clip need not be converted on the way through).
 */
export function sizeMatrix(height: number): YuvMatrix {
  return height >= HD_MIN_HEIGHT ? 'bt709' : 'smpte170m';
}

/** Kr and Kb of each matrix (Kg = 1 - Kr - Kb). */
export const LUMA_WEIGHTS: Record<YuvMatrix, { kr: number; kb: number }> = {
  bt709: { kr: 0.2126, kb: 0.0722 },
  smpte170m: { kr: 0.299, kb: 0.114 },
};

/** The I420 frame of an RGBA frame of this size: even dimensions, and its bytes. */
export function i420Size(width: number, height: number): { width: number; height: number; bytes: number } {
  const w = width + (width % 2);
  const h = height + (height % 2);
  return { width: w, height: h, bytes: w * h * 1.5 };
}

/**
 * The kernel's Q15 coefficients for Y, U and V of R, G and B, limited range. The G terms of U and V are
 * the negated sum of the others, so that every grey has U = V = 128 exactly.
 */
export function i420Coefficients(matrix: YuvMatrix): number[] {
  const { kr, kb } = LUMA_WEIGHTS[matrix];
  const kg = 1 - kr - kb;
  const q = (v: number) => Math.round(v * 32768);
  const ys = 219 / 255;
  const cs = 224 / 255;
  const ur = q((-kr / (2 * (1 - kb))) * cs);
  const ub = q(0.5 * cs);
  const vr = q(0.5 * cs);
  const vb = q((-kb / (2 * (1 - kr))) * cs);
  return [q(kr * ys), q(kg * ys), q(kb * ys), ur, -ur - ub, ub, vr, -vr - vb, vb];
}

interface Kernel extends KernelMemory {
  convert(src: number, width: number, height: number, dst: number, ...coefficients: number[]): void;
}

const kernel = wasmKernel<Kernel>('./rgba-to-yuv420.wasm');

/**
 * Converts opaque RGBA of `width` x `height` to I420 in `out` (i420Size(width, height).bytes long); alpha is
 * ignored (frames for these encoders are flattened on the composition's background).
 */
export function rgbaToI420(
  rgba: Uint8Array,
  width: number,
  height: number,
  matrix: YuvMatrix,
  out: Uint8Array,
): void {
  const size = i420Size(width, height);
  if (rgba.byteLength !== width * height * 4 || out.byteLength !== size.bytes)
    throw new RangeError(`rgbaToI420: buffers do not fit a ${width}x${height} frame`);
  const k = kernel.withRoom(size.width * size.height * 4 + size.bytes);
  const mem = new Uint8Array(k.memory.buffer);
  if (size.width === width && size.height === height) mem.set(rgba, FRAME_BASE);
  else padInto(mem, rgba, width, height, size.width, size.height);
  const dst = FRAME_BASE + size.width * size.height * 4;
  k.convert(FRAME_BASE, size.width, size.height, dst, ...i420Coefficients(matrix));
  out.set(mem.subarray(dst, dst + size.bytes));
}

/** Converts a rendered opaque frame into the buffer `target` gives for its size, with the matrix it names. */
export function frameToI420<F extends { rgba: Uint8Array; width: number; height: number }>(
  frame: F,
  target: I420Target,
): F {
  const { buffer, matrix } = target(frame.width, frame.height);
  rgbaToI420(frame.rgba, frame.width, frame.height, matrix, buffer);
  return frame;
}

/** Copies an odd-sized frame into the kernel's memory, padded with opaque black to even `w` x `h`. */
function padInto(
  mem: Uint8Array,
  rgba: Uint8Array,
  width: number,
  height: number,
  w: number,
  h: number,
): void {
  const black = new Uint32Array(mem.buffer, FRAME_BASE, w * h);
  black.fill(0xff000000);
  for (let y = 0; y < height; y++)
    mem.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), FRAME_BASE + y * w * 4);
}
