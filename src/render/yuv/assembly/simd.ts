/** SIMD helpers the YUV kernels share (AssemblyScript, see rgba-to-yuv420.ts and i420-over.ts). */

/** Sum of adjacent lane pairs of two i32x4 vectors: [a0+a1, a2+a3, b0+b1, b2+b3]. */
export function pairSums(a: v128, b: v128): v128 {
  return i32x4.add(
    i8x16.shuffle(a, b, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27),
    i8x16.shuffle(a, b, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31),
  );
}

/** Q15 dot products of four pixels (two i16x8 halves) with `c` ([r, g, b, 0] twice): one i32 per pixel. */
export function dot4(low: v128, high: v128, c: v128): v128 {
  return pairSums(i32x4.dot_i16x8_s(low, c), i32x4.dot_i16x8_s(high, c));
}

/** Sixteen i32 lanes (four vectors) narrowed with saturation to sixteen bytes. */
export function bytes16(a: v128, b: v128, c: v128, d: v128): v128 {
  return i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_s(a, b), i16x8.narrow_i32x4_s(c, d));
}

export function clampByte(v: i32): u8 {
  return <u8>(v < 0 ? 0 : v > 255 ? 255 : v);
}

/** One matrix row as Q15 weights for `dot4`: [r, g, b, 0] twice. */
export function weights(r: i32, g: i32, b: i32): v128 {
  return i16x8(<i16>r, <i16>g, <i16>b, 0, <i16>r, <i16>g, <i16>b, 0);
}
