// The textbook RGB <-> YUV formulas in floating point: the independent reference the YUV kernels' tests check
// the fixed-point WebAssembly against (test/unit/render/i420.test.ts, over-plate.test.ts).
import type { YuvMatrix } from '../../src/render/yuv/i420.js';

export type Rgb = [number, number, number];

/** Kr and Kb of each matrix (ITU-R BT.709, BT.601). */
export const WEIGHTS: Record<YuvMatrix, [number, number]> = {
  bt709: [0.2126, 0.0722],
  smpte170m: [0.299, 0.114],
};

/** Limited-range Y, U, V of one RGB colour, 0..255 (U, V of a 2x2 block are those of its average colour). */
export function yuvOf([r, g, b]: Rgb, matrix: YuvMatrix): Rgb {
  const [kr, kb] = WEIGHTS[matrix];
  const y = kr * r + (1 - kr - kb) * g + kb * b;
  return [
    16 + (219 * y) / 255,
    128 + ((224 / 255) * (b - y)) / (2 * (1 - kb)),
    128 + ((224 / 255) * (r - y)) / (2 * (1 - kr)),
  ];
}
