/**
 * Graphics over a footage plate in YUV: the frame of a video layer at the bottom of a composition, as its
 * decoder gives it (I420), with the layers above it (premultiplied RGBA from Skia) blended on in place. Compiled
 * to WebAssembly with SIMD by AssemblyScript (npm run build:wasm); i420-over.wasm beside the loader is the
 * compiled form, and a test checks it matches this source.
 *
 * Why: a 1080p clip under a lower third otherwise goes YUV -> RGBA in the decoder, 8 MB through a pipe, into a
 * Skia canvas, and back to YUV for the encoder; here it stays 3 MB of YUV and only the graphics are converted.
 *
 * The arithmetic (out = graphics + (1 - alpha) * plate, in limited-range YUV, which is an affine image of RGB,
 * so blending there equals blending in RGB): with premultiplied R, G, B and alpha a (0..255),
 *   Y = 16 a / 255 + (Kr R + Kg G + Kb B) 219 / 255 + (255 - a) Yp / 255
 * per pixel, in Q16; U and V the same on the sums of each 2x2 block (Q18), the offset 128 and the plate's share
 * weighted by the block's summed alpha. Divisions by 255 and 1020 are multiplications by 257 / 2^16 and
 * 257 / 2^18 (relative error 2e-5). The caller passes the matrix's Q15 coefficients (i420.ts); `width` and
 * `height` are even. A group of 8 x 2 pixels with no alpha at all is left as the plate.
 *
 * `retag` first turns a plate stored with another matrix or in full range into the output's limited-range
 * matrix: Y' = 16 + ty (Y - y0) + tyu (U - 128) + tyv (V - 128), U' and V' from U and V alone (a grey stays grey
 * under any change of matrix), Q15; each luma sample takes its block's chroma.
 */

import { bytes16, clampByte, dot4, pairSums, weights } from './simd';

/** The alpha bytes of four RGBA pixels as i32 lanes. */
function alphas(px: v128): v128 {
  return i8x16.shuffle(px, i32x4.splat(0), 3, 16, 16, 16, 7, 16, 16, 16, 11, 16, 16, 16, 15, 16, 16, 16);
}

/** Four bytes at `p` as i32 lanes. */
function load4(p: usize): v128 {
  return i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(p)));
}

/** One pixel's Y over the plate's `yp` (scalar form of the SIMD step). */
function overY(px: usize, yp: i32, yr: i32, yg: i32, yb: i32): u8 {
  const a = <i32>load<u8>(px, 3);
  const d = yr * <i32>load<u8>(px) + yg * <i32>load<u8>(px, 1) + yb * <i32>load<u8>(px, 2);
  return clampByte((d * 2 + a * 4112 + (255 - a) * yp * 257 + 32768) >> 16);
}

/**
 * Blends `width` x `height` graphics (rows `gfxStride` bytes apart) onto the plate's samples at `yPlane`,
 * `uPlane`, `vPlane` (luma rows `lumaStride` bytes apart, chroma rows half that): the whole frame, or a
 * rectangle of it at even coordinates (the pointers at its top left corner).
 */
export function over(
  gfx: usize,
  gfxStride: i32,
  yPlane: usize,
  uPlane: usize,
  vPlane: usize,
  lumaStride: i32,
  width: i32,
  height: i32,
  yr: i32,
  yg: i32,
  yb: i32,
  ur: i32,
  ug: i32,
  ub: i32,
  vr: i32,
  vg: i32,
  vb: i32,
): void {
  const chromaStride = lumaStride >> 1;
  const cY = weights(yr, yg, yb);
  const cU = weights(ur, ug, ub);
  const cV = weights(vr, vg, vb);
  const alphaMask = i32x4.splat(0xff000000);
  const k255 = i32x4.splat(255);
  const k1020 = i32x4.splat(1020);
  const kA = i32x4.splat(4112);
  const kCA = i32x4.splat(32897);
  const k257 = i32x4.splat(257);
  const roundY = i32x4.splat(32768);
  const roundC = i32x4.splat(1 << 17);
  const stride = <usize>gfxStride;
  const simdWidth = width & ~7;
  for (let y = 0; y < height; y += 2) {
    let s0 = gfx + <usize>y * stride;
    let s1 = s0 + stride;
    let d0 = yPlane + <usize>(y * lumaStride);
    let d1 = d0 + <usize>lumaStride;
    let u = uPlane + <usize>((y >> 1) * chromaStride);
    let v = vPlane + <usize>((y >> 1) * chromaStride);
    for (let x = 0; x < simdWidth; x += 8) {
      const a0 = v128.load(s0),
        a1 = v128.load(s0, 16);
      const b0 = v128.load(s1),
        b1 = v128.load(s1, 16);
      if (v128.any_true(v128.and(v128.or(v128.or(a0, a1), v128.or(b0, b1)), alphaMask))) {
        const la0 = i16x8.extend_low_i8x16_u(a0),
          ha0 = i16x8.extend_high_i8x16_u(a0);
        const la1 = i16x8.extend_low_i8x16_u(a1),
          ha1 = i16x8.extend_high_i8x16_u(a1);
        const lb0 = i16x8.extend_low_i8x16_u(b0),
          hb0 = i16x8.extend_high_i8x16_u(b0);
        const lb1 = i16x8.extend_low_i8x16_u(b1),
          hb1 = i16x8.extend_high_i8x16_u(b1);
        const al0 = alphas(a0),
          al1 = alphas(a1),
          bl0 = alphas(b0),
          bl1 = alphas(b1);
        // Luma of both rows: eight pixels each.
        const p0 = i16x8.extend_low_i8x16_u(v128.load64_zero(d0));
        const p1 = i16x8.extend_low_i8x16_u(v128.load64_zero(d1));
        const y00 = overLuma(dot4(la0, ha0, cY), al0, i32x4.extend_low_i16x8_u(p0), k255, kA, k257, roundY);
        const y01 = overLuma(dot4(la1, ha1, cY), al1, i32x4.extend_high_i16x8_u(p0), k255, kA, k257, roundY);
        const y10 = overLuma(dot4(lb0, hb0, cY), bl0, i32x4.extend_low_i16x8_u(p1), k255, kA, k257, roundY);
        const y11 = overLuma(dot4(lb1, hb1, cY), bl1, i32x4.extend_high_i16x8_u(p1), k255, kA, k257, roundY);
        v128.store64_lane(d0, bytes16(y00, y01, y00, y01), 0);
        v128.store64_lane(d1, bytes16(y10, y11, y10, y11), 0);
        // Chroma of four blocks: the rows' sums (at most 510 a channel), then the column pairs'.
        const sl0 = i16x8.add(la0, lb0),
          sh0 = i16x8.add(ha0, hb0);
        const sl1 = i16x8.add(la1, lb1),
          sh1 = i16x8.add(ha1, hb1);
        const sa = pairSums(i32x4.add(al0, bl0), i32x4.add(al1, bl1));
        const uu = overChroma(
          pairSums(dot4(sl0, sh0, cU), dot4(sl1, sh1, cU)),
          sa,
          load4(u),
          k1020,
          kCA,
          k257,
          roundC,
        );
        const vv = overChroma(
          pairSums(dot4(sl0, sh0, cV), dot4(sl1, sh1, cV)),
          sa,
          load4(v),
          k1020,
          kCA,
          k257,
          roundC,
        );
        v128.store32_lane(u, bytes16(uu, uu, uu, uu), 0);
        v128.store32_lane(v, bytes16(vv, vv, vv, vv), 0);
      }
      s0 += 32;
      s1 += 32;
      d0 += 8;
      d1 += 8;
      u += 4;
      v += 4;
    }
    // The last columns (width not a multiple of 8), a block at a time, with the same arithmetic.
    for (let x = simdWidth; x < width; x += 2) {
      let rs = 0,
        gs = 0,
        bs = 0,
        as = 0;
      for (let k = 0; k < 4; k++) {
        const p = (k < 2 ? s0 : s1) + <usize>((k & 1) * 4);
        const d = (k < 2 ? d0 : d1) + <usize>(k & 1);
        store<u8>(d, overY(p, <i32>load<u8>(d), yr, yg, yb));
        rs += <i32>load<u8>(p);
        gs += <i32>load<u8>(p, 1);
        bs += <i32>load<u8>(p, 2);
        as += <i32>load<u8>(p, 3);
      }
      const up = <i32>load<u8>(u),
        vp = <i32>load<u8>(v);
      const rest = (1020 - as) * 257;
      store<u8>(u, clampByte(((ur * rs + ug * gs + ub * bs) * 2 + as * 32897 + rest * up + (1 << 17)) >> 18));
      store<u8>(v, clampByte(((vr * rs + vg * gs + vb * bs) * 2 + as * 32897 + rest * vp + (1 << 17)) >> 18));
      s0 += 8;
      s1 += 8;
      d0 += 2;
      d1 += 2;
      u += 1;
      v += 1;
    }
  }
}

/** Y (Q16, rounded) of four pixels: 2 dot + 4112 a + 257 (255 - a) Yp. */
function overLuma(dot: v128, a: v128, yp: v128, k255: v128, kA: v128, k257: v128, round: v128): v128 {
  const plateShare = i32x4.mul(i32x4.mul(i32x4.sub(k255, a), yp), k257);
  return i32x4.shr_s(
    i32x4.add(i32x4.add(i32x4.shl(dot, 1), i32x4.mul(a, kA)), i32x4.add(plateShare, round)),
    16,
  );
}

/** U or V (Q18, rounded) of four blocks: 2 dot + 32897 sum(a) + 257 (1020 - sum(a)) Cp. */
function overChroma(dot: v128, sa: v128, cp: v128, k1020: v128, kCA: v128, k257: v128, round: v128): v128 {
  const plateShare = i32x4.mul(i32x4.mul(i32x4.sub(k1020, sa), cp), k257);
  return i32x4.shr_s(
    i32x4.add(i32x4.add(i32x4.shl(dot, 1), i32x4.mul(sa, kCA)), i32x4.add(plateShare, round)),
    18,
  );
}

/** Retagged Y (Q15, rounded) of four pixels: ty (Y - y0) + their block's correction (offset included). */
function retagLuma(row: v128, y0: v128, ty: v128, fix: v128): v128 {
  return i32x4.shr_s(i32x4.add(i32x4.mul(i32x4.sub(row, y0), ty), fix), 15);
}

export function retag(
  plate: usize,
  width: i32,
  height: i32,
  y0: i32,
  ty: i32,
  tyu: i32,
  tyv: i32,
  tuu: i32,
  tuv: i32,
  tvu: i32,
  tvv: i32,
): void {
  const cw = width >> 1;
  const uPlane = plate + <usize>(width * height);
  const vPlane = uPlane + <usize>(cw * (height >> 1));
  const k128 = i32x4.splat(128);
  const kY0 = i32x4.splat(y0);
  const vty = i32x4.splat(ty),
    vtyu = i32x4.splat(tyu),
    vtyv = i32x4.splat(tyv);
  const vtuu = i32x4.splat(tuu),
    vtuv = i32x4.splat(tuv),
    vtvu = i32x4.splat(tvu),
    vtvv = i32x4.splat(tvv);
  const offY = i32x4.splat((16 << 15) + (1 << 14));
  const offC = i32x4.splat((128 << 15) + (1 << 14));
  const simdWidth = width & ~7;
  for (let y = 0; y < height; y += 2) {
    let d0 = plate + <usize>(y * width);
    let d1 = d0 + <usize>width;
    let u = uPlane + <usize>((y >> 1) * cw);
    let v = vPlane + <usize>((y >> 1) * cw);
    for (let x = 0; x < simdWidth; x += 8) {
      const cu = i32x4.sub(load4(u), k128);
      const cv = i32x4.sub(load4(v), k128);
      // Each block's luma correction, for its two columns.
      const fix = i32x4.add(i32x4.add(i32x4.mul(cu, vtyu), i32x4.mul(cv, vtyv)), offY);
      const fixLow = i8x16.shuffle(fix, fix, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7);
      const fixHigh = i8x16.shuffle(fix, fix, 8, 9, 10, 11, 8, 9, 10, 11, 12, 13, 14, 15, 12, 13, 14, 15);
      const r0 = i16x8.extend_low_i8x16_u(v128.load64_zero(d0));
      const r1 = i16x8.extend_low_i8x16_u(v128.load64_zero(d1));
      const y00 = retagLuma(i32x4.extend_low_i16x8_u(r0), kY0, vty, fixLow);
      const y01 = retagLuma(i32x4.extend_high_i16x8_u(r0), kY0, vty, fixHigh);
      const y10 = retagLuma(i32x4.extend_low_i16x8_u(r1), kY0, vty, fixLow);
      const y11 = retagLuma(i32x4.extend_high_i16x8_u(r1), kY0, vty, fixHigh);
      v128.store64_lane(d0, bytes16(y00, y01, y00, y01), 0);
      v128.store64_lane(d1, bytes16(y10, y11, y10, y11), 0);
      const uu = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.mul(cu, vtuu), i32x4.mul(cv, vtuv)), offC), 15);
      const vv = i32x4.shr_s(i32x4.add(i32x4.add(i32x4.mul(cu, vtvu), i32x4.mul(cv, vtvv)), offC), 15);
      v128.store32_lane(u, bytes16(uu, uu, uu, uu), 0);
      v128.store32_lane(v, bytes16(vv, vv, vv, vv), 0);
      d0 += 8;
      d1 += 8;
      u += 4;
      v += 4;
    }
    for (let x = simdWidth; x < width; x += 2) {
      const cu = <i32>load<u8>(u) - 128,
        cv = <i32>load<u8>(v) - 128;
      const fix = cu * tyu + cv * tyv + (16 << 15) + (1 << 14);
      for (let k = 0; k < 4; k++) {
        const d = (k < 2 ? d0 : d1) + <usize>(k & 1);
        store<u8>(d, clampByte(((<i32>load<u8>(d) - y0) * ty + fix) >> 15));
      }
      store<u8>(u, clampByte((cu * tuu + cv * tuv + (128 << 15) + (1 << 14)) >> 15));
      store<u8>(v, clampByte((cu * tvu + cv * tvv + (128 << 15) + (1 << 14)) >> 15));
      d0 += 2;
      d1 += 2;
      u += 1;
      v += 1;
    }
  }
}
