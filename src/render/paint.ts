/** Colour strings for Skia, blend-mode mapping, and small canvas helpers shared by the drawing modules. */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { parseColor } from '../engine/color.js';
import type { BlendMode } from '../engine/index.js';

const cssCache = new Map<string, string>();

/** `#rrggbb[aa]` -> `rgba(r, g, b, a)` (cached: the same few colours recur on every frame). */
export function css(hex: string): string {
  let out = cssCache.get(hex);
  if (out === undefined) {
    const c = parseColor(hex) ?? [0, 0, 0, 1];
    out = `rgba(${Math.round(c[0] * 255)}, ${Math.round(c[1] * 255)}, ${Math.round(c[2] * 255)}, ${c[3]})`;
    if (cssCache.size > 4096) cssCache.clear();
    cssCache.set(hex, out);
  }
  return out;
}

/** Blend mode -> canvas globalCompositeOperation (Skia implements the W3C compositing modes). */
export function compositeOp(mode: BlendMode): GlobalCompositeOperation {
  if (mode === 'normal') return 'source-over';
  if (mode === 'add') return 'lighter';
  return mode;
}

export type GlobalCompositeOperation = SKRSContext2D['globalCompositeOperation'];

/** Resets a context to a known state: identity transform, full opacity, source-over, no filter. */
export function resetState(ctx: SKRSContext2D): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = 'source-over';
  ctx.filter = 'none';
}
