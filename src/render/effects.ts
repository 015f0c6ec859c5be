/**
 * Layer effects, applied in layer space (on the layer's own surface) before the transform, in stack order.
 * Every param is keyframeable and read at layer time. Blur-like params are in layer pixels; `k` converts
 * them to surface pixels (the surface may be rendered at a preview scale).
 */
import type { Canvas } from '@napi-rs/canvas';
import { effectParam, effectType } from '../engine/effect-types.js';
import { own } from '../engine/own.js';
import { valueAt, type Effect } from '../engine/core.js';
import { applyLut, LUMA, mapPixels } from './pixels.js';
import { parseColor } from '../engine/color.js';
import { css } from './paint.js';
import type { Surface, SurfacePool } from './surfaces.js';

/** Blur `radius` is where the Gaussian fades out: sigma = radius / 2, visible extent about 1.5 × radius. */
const SIGMA_PER_RADIUS = 0.5;
const EXTENT_PER_RADIUS = 1.5;

/** A param's default from the effect table; type and param names come from the document, so own entries only. */
function defaultOf(e: Effect, name: string): unknown {
  const spec = effectType(e.type);
  return spec ? effectParam(spec, name)?.default : undefined;
}

function num(e: Effect, name: string, lt: number): number {
  const p = own(e.params, name);
  if (p) return Number(valueAt(p, lt));
  const d = defaultOf(e, name);
  return typeof d === 'number' ? d : 0;
}

function color(e: Effect, name: string, lt: number): string {
  const p = own(e.params, name);
  if (p) return String(valueAt(p, lt));
  return String(defaultOf(e, name) ?? '#000000');
}

/** How far (layer pixels) the enabled effects can spread content beyond the layer's bounds. */
export function effectPadding(effects: readonly Effect[], lt: number): number {
  let pad = 0;
  for (const e of effects) {
    if (!e.enabled) continue;
    if (e.type === 'gaussianBlur') pad += num(e, 'radius', lt) * EXTENT_PER_RADIUS;
    else if (e.type === 'dropShadow')
      pad += num(e, 'distance', lt) + num(e, 'softness', lt) * EXTENT_PER_RADIUS;
    else if (e.type === 'glow') pad += num(e, 'radius', lt) * EXTENT_PER_RADIUS;
  }
  return Math.ceil(pad);
}

/** Draws `src` through a CSS filter into a new pooled surface and releases `src`. */
function filtered(pool: SurfacePool, src: Surface, filter: string): Surface {
  const dst = pool.acquire(src.canvas.width, src.canvas.height);
  dst.ctx.filter = filter;
  dst.ctx.drawImage(src.canvas, 0, 0);
  dst.ctx.filter = 'none';
  pool.release(src);
  return dst;
}

function blurFilter(radiusPx: number): string {
  return `blur(${(radiusPx * SIGMA_PER_RADIUS).toFixed(3)}px)`;
}

/** Covers the whole surface with `fill` composited by `op` at `alpha`. */
function cover(s: Surface, fill: string, op: 'source-atop' | 'source-in', alpha: number): void {
  s.ctx.save();
  s.ctx.globalCompositeOperation = op;
  s.ctx.globalAlpha = Math.max(0, Math.min(1, alpha));
  s.ctx.fillStyle = fill;
  s.ctx.fillRect(0, 0, s.canvas.width, s.canvas.height);
  s.ctx.restore();
}

/**
 * Applies the enabled effects of the stack to `surface`; returns the resulting surface (possibly another
 * pooled one; the input is released when replaced). Unknown effect types are skipped with a warning.
 */
export function applyEffects(
  pool: SurfacePool,
  surface: Surface,
  effects: readonly Effect[],
  lt: number,
  k: number,
  warn: (message: string) => void,
): Surface {
  let s = surface;
  for (const e of effects) {
    if (!e.enabled) continue;
    switch (e.type) {
      case 'gaussianBlur': {
        const r = num(e, 'radius', lt) * k;
        if (r > 0) s = filtered(pool, s, blurFilter(r));
        break;
      }
      case 'dropShadow':
        s = dropShadow(pool, s, e, lt, k);
        break;
      case 'fill':
        cover(s, css(color(e, 'color', lt)), 'source-atop', num(e, 'opacity', lt) / 100);
        break;
      case 'tint':
        tint(s.canvas, e, lt);
        break;
      case 'brightnessContrast':
        applyLut(s.canvas, brightnessContrastLut(num(e, 'brightness', lt), num(e, 'contrast', lt)));
        break;
      case 'hueSaturation': {
        const hue = num(e, 'hue', lt);
        const sat = Math.max(0, 1 + num(e, 'saturation', lt) / 100);
        if (hue !== 0 || sat !== 1) s = filtered(pool, s, `hue-rotate(${hue}deg) saturate(${sat})`);
        const light = num(e, 'lightness', lt) / 100;
        if (light !== 0) cover(s, light > 0 ? '#ffffff' : '#000000', 'source-atop', Math.abs(light));
        break;
      }
      case 'invert': {
        const amount = Math.max(0, Math.min(1, num(e, 'amount', lt) / 100));
        if (amount > 0) s = filtered(pool, s, `invert(${amount})`);
        break;
      }
      case 'glow':
        s = glow(pool, s, e, lt, k);
        break;
      default:
        warn(`Effect "${e.type}" (${e.id}) is not known to the renderer and was skipped.`);
    }
  }
  return s;
}

function dropShadow(pool: SurfacePool, s: Surface, e: Effect, lt: number, k: number): Surface {
  const angle = (num(e, 'angle', lt) * Math.PI) / 180;
  const dist = num(e, 'distance', lt) * k;
  const soft = num(e, 'softness', lt) * k;
  const out = pool.acquire(s.canvas.width, s.canvas.height);
  // 0 degrees points up, clockwise: 135 casts the shadow down and to the right.
  out.ctx.filter = soft > 0 ? blurFilter(soft) : 'none';
  out.ctx.drawImage(s.canvas, Math.sin(angle) * dist, -Math.cos(angle) * dist);
  out.ctx.filter = 'none';
  cover(out, css(color(e, 'color', lt)), 'source-in', num(e, 'opacity', lt) / 100);
  out.ctx.drawImage(s.canvas, 0, 0);
  pool.release(s);
  return out;
}

function glow(pool: SurfacePool, s: Surface, e: Effect, lt: number, k: number): Surface {
  const threshold = (num(e, 'threshold', lt) / 100) * 255;
  const radius = num(e, 'radius', lt) * k;
  const intensity = Math.max(0, num(e, 'intensity', lt));
  if (intensity === 0) return s;
  const bright = pool.acquire(s.canvas.width, s.canvas.height);
  bright.ctx.drawImage(s.canvas, 0, 0);
  mapPixels(bright.canvas, (px) => {
    for (let i = 0; i < px.length; i += 4) {
      if (LUMA[0] * px[i]! + LUMA[1] * px[i + 1]! + LUMA[2] * px[i + 2]! < threshold) px[i + 3] = 0;
    }
  });
  const halo = radius > 0 ? filtered(pool, bright, blurFilter(radius)) : bright;
  // Additive, as a light: intensity 2.5 adds the halo two and a half times.
  s.ctx.save();
  s.ctx.globalCompositeOperation = 'lighter';
  for (let left = intensity; left > 0; left -= 1) {
    s.ctx.globalAlpha = Math.min(1, left);
    s.ctx.drawImage(halo.canvas, 0, 0);
  }
  s.ctx.restore();
  pool.release(halo);
  return s;
}

/** Brightness shifts levels (out of 255); contrast scales around mid-grey (-100 flattens, +100 doubles). */
export function brightnessContrastLut(brightness: number, contrast: number): Uint8ClampedArray {
  const lut = new Uint8ClampedArray(256);
  const c = 1 + contrast / 100;
  for (let v = 0; v < 256; v++) lut[v] = Math.round((v + brightness - 127.5) * c + 127.5);
  return lut;
}

function tint(canvas: Canvas, e: Effect, lt: number): void {
  const black = parseColor(color(e, 'mapBlackTo', lt)) ?? [0, 0, 0, 1];
  const white = parseColor(color(e, 'mapWhiteTo', lt)) ?? [1, 1, 1, 1];
  const amount = Math.max(0, Math.min(1, num(e, 'amount', lt) / 100));
  if (amount === 0) return;
  mapPixels(canvas, (px) => {
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3] === 0) continue;
      const l = (LUMA[0] * px[i]! + LUMA[1] * px[i + 1]! + LUMA[2] * px[i + 2]!) / 255;
      for (let ch = 0; ch < 3; ch++) {
        const mapped = (black[ch]! + (white[ch]! - black[ch]!) * l) * 255;
        px[i + ch] = px[i + ch]! + (mapped - px[i + ch]!) * amount;
      }
    }
  });
}
