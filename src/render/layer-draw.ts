/**
 * Drawing one layer onto a target: directly with its transform when its content is a single paint operation
 * and it has no effects (the fast path), otherwise through a layer-space surface where effects run first.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import {
  missingGlyphsMessage,
  valueAt,
  type Composition,
  type FootageItem,
  type Layer,
} from '../engine/core.js';
import { inflate, union, type Rect } from './bounds.js';
import { applyEffects, effectPadding } from './effects.js';
import type { ComposeEnv } from './env.js';
import { blendsFrames, drawPlaceholder, footagePicture, type FrameMix } from './footage.js';
import { precompTime } from './media/frame-plan.js';
import { mul, pixelScale, scaling, translate, type Mat } from '../engine/affine.js';
import { css, resetState, type GlobalCompositeOperation } from './paint.js';
import { drawShape, shapeBounds, shapeIsLayered } from './shape.js';
import type { Surface } from './surfaces.js';
import { uncoveredCharacters } from './font-list.js';
import { drawText, layoutText, textInk } from './text.js';
import { layerTime } from '../engine/layer-transform.js';
import { hasStaticContent } from './layer-cache.js';

/** Largest side and area of a layer surface; beyond them it is rendered at a lower resolution. */
const MAX_LAYER_SIDE = 8192;
const MAX_LAYER_PIXELS = 32_000_000;
/** Largest side a nested composition is rendered at, unless its own size is larger. */
const MAX_NESTED_SIDE = 4096;

function footageItem(env: Pick<ComposeEnv, 'doc'>, id: string): FootageItem | undefined {
  return env.doc.items.find((i): i is FootageItem => i.type === 'footage' && i.id === id);
}

function nestedComp(env: Pick<ComposeEnv, 'doc'>, id: string): Composition | undefined {
  return env.doc.items.find((i): i is Composition => i.type === 'composition' && i.id === id);
}

/** The layer's content rectangle in layer units, or null when it draws nothing. */
export function contentBounds(
  env: Pick<ComposeEnv, 'doc' | 'measure'>,
  layer: Layer,
  lt: number,
): Rect | null {
  const src = layer.source;
  switch (src.kind) {
    case 'solid':
      return { x: 0, y: 0, w: src.width, h: src.height };
    case 'footage': {
      const item = footageItem(env, src.footage);
      // Audio footage has no picture.
      return item && item.media?.kind !== 'audio' ? { x: 0, y: 0, w: item.width, h: item.height } : null;
    }
    case 'precomp': {
      const c = nestedComp(env, src.comp);
      return c ? { x: 0, y: 0, w: c.width, h: c.height } : null;
    }
    case 'text': {
      const layout = layoutText(env.measure, layer, src, lt);
      // The glyphs' ink may reach past the layout box (marks stacked above a line), and a stroke past the ink.
      const ink = textInk(env.measure, layout);
      return ink.w > 0 ? union(layout.bounds, inflate(ink, layout.stroke?.width ?? 0)) : layout.bounds;
    }
    case 'shape':
      return shapeBounds(src, lt);
    default:
      return null;
  }
}

/** Draws the layer's content in layer units with ctx's current transform; `k` = device pixels per unit. */
export function drawContent(env: ComposeEnv, ctx: SKRSContext2D, layer: Layer, lt: number, k: number): void {
  const src = layer.source;
  switch (src.kind) {
    case 'solid':
      ctx.fillStyle = css(valueAt<string>(src.color, lt));
      ctx.fillRect(0, 0, src.width, src.height);
      return;
    case 'footage': {
      const item = footageItem(env, src.footage);
      if (!item) return;
      const image = footagePicture(env.footage, item, layer, lt);
      if (image === 'nothing') return;
      if (image && 'weight' in image) drawFrameMix(ctx, image, item.width, item.height);
      else if (image) ctx.drawImage(image, 0, 0, item.width, item.height);
      else drawPlaceholder(ctx, item.width, item.height);
      return;
    }
    case 'text': {
      const missing = uncoveredCharacters(src.text);
      if (missing.length) {
        env.warn(`Text layer "${layer.name}": ${missingGlyphsMessage(missing)}`);
      }
      drawText(ctx, layoutText(env.measure, layer, src, lt));
      return;
    }
    case 'shape':
      drawShape(ctx, src, lt);
      return;
    case 'precomp': {
      const c = nestedComp(env, src.comp);
      if (!c) return;
      const nt = precompTime(layer, lt, c);
      if (nt === null) return;
      // The nested comp is rendered at the resolution it is shown at (bounded), then drawn at its own size.
      const kk = Math.min(k, Math.max(1, MAX_NESTED_SIDE / Math.max(c.width, c.height)));
      const w = Math.max(1, Math.round(c.width * kk));
      const h = Math.max(1, Math.round(c.height * kk));
      env.drawNested(c, nt, w, h, (nested) => ctx.drawImage(nested, 0, 0, c.width, c.height));
      return;
    }
    default:
      return;
  }
}

/**
 * Frame blending: a * (1 - weight) + b * weight, summed ('lighter') in premultiplied pixels, so the mix is exact
 * for transparent footage too. Drawn on the layer's own (transparent) surface: see drawsDirect.
 */
function drawFrameMix(ctx: SKRSContext2D, mix: FrameMix, width: number, height: number): void {
  ctx.save();
  const alpha = ctx.globalAlpha;
  ctx.globalAlpha = alpha * (1 - mix.weight);
  ctx.drawImage(mix.a, 0, 0, width, height);
  ctx.globalCompositeOperation = 'lighter';
  ctx.globalAlpha = alpha * mix.weight;
  ctx.drawImage(mix.b, 0, 0, width, height);
  ctx.restore();
}

/** Whether the content is one paint operation, so opacity and blending can apply while drawing it. */
function drawsDirect(layer: Layer): boolean {
  const src = layer.source;
  // A frame mix is two paint operations summed: it needs a surface of its own.
  if (src.kind === 'footage' && blendsFrames(layer)) return false;
  if (src.kind === 'text') return src.stroke === null;
  if (src.kind === 'shape') return !shapeIsLayered(src);
  return true;
}

export interface LayerSurface {
  surface: Surface;
  /** Layer-space rectangle the surface covers. */
  rect: Rect;
  /** Surface pixels per layer unit. */
  k: number;
}

/** A layer surface's rectangle (its bounds plus effect padding, layer units) and its pixels per unit. */
function surfaceGeometry(
  env: Pick<ComposeEnv, 'doc' | 'measure'>,
  layer: Layer,
  lt: number,
  m: Mat,
): { rect: Rect; k: number } | null {
  const effects = layer.effects.filter((e) => e.enabled);
  const bounds = contentBounds(env, layer, lt);
  if (!bounds || bounds.w <= 0 || bounds.h <= 0) return null;
  const rect = inflate(bounds, effectPadding(effects, lt));
  let k = Math.min(8, pixelScale(m));
  const side = Math.max(rect.w, rect.h) * k;
  if (side > MAX_LAYER_SIDE) k *= MAX_LAYER_SIDE / side;
  const area = rect.w * rect.h * k * k;
  if (area > MAX_LAYER_PIXELS) k *= Math.sqrt(MAX_LAYER_PIXELS / area);
  return k > 0 ? { rect, k } : null;
}

/**
 * Where drawing `layer` (layer->device matrix `m`) can paint, in layer units, and the device pixels the drawing
 * may spread past it (antialiasing, and a layer surface's own pixels smoothed when drawn larger); null: nowhere.
 * A layer drawn through its surface paints only that surface; one drawn directly, its content bounds.
 */
export function paintLimit(
  env: Pick<ComposeEnv, 'doc' | 'measure'>,
  layer: Layer,
  m: Mat,
  t: number,
): { rect: Rect; spread: number } | null {
  const lt = layerTime(layer, t);
  const scale = pixelScale(m);
  if (!(scale > 0)) return null;
  if (drawsDirect(layer) && !layer.effects.some((e) => e.enabled)) {
    const bounds = contentBounds(env, layer, lt);
    return bounds && { rect: bounds, spread: 1 };
  }
  const g = surfaceGeometry(env, layer, lt, m);
  if (!g) return null;
  // The pool rounds a surface's size up (surfaces.ts): its last column and row reach past the rectangle.
  const { rect, k } = g;
  const drawn = { x: rect.x, y: rect.y, w: Math.ceil(rect.w * k) / k, h: Math.ceil(rect.h * k) / k };
  return { rect: drawn, spread: 1 + scale / k };
}

/** Renders the layer's content and effects into a surface covering its bounds plus effect padding. */
export function layerSurface(env: ComposeEnv, layer: Layer, lt: number, m: Mat): LayerSurface | null {
  const effects = layer.effects.filter((e) => e.enabled);
  const g = surfaceGeometry(env, layer, lt, m);
  if (!g) return null;
  const { rect, k } = g;
  const s = env.pool.acquire(rect.w * k, rect.h * k);
  s.ctx.setTransform(k, 0, 0, k, -rect.x * k, -rect.y * k);
  drawContent(env, s.ctx, layer, lt, k);
  resetState(s.ctx);
  return { surface: applyEffects(env.pool, s, effects, lt, k, env.warn), rect, k };
}

/**
 * The layer's surface: the one kept from an earlier frame when its content is static (layer-cache.ts), else
 * rendered now. `pooled`: the caller releases it to the pool after drawing it (a kept one is the cache's).
 */
function shownSurface(
  env: ComposeEnv,
  layer: Layer,
  lt: number,
  m: Mat,
): { ls: LayerSurface; pooled: boolean } | null {
  const cache = env.layerCache;
  if (!cache || !hasStaticContent(layer)) {
    const ls = layerSurface(env, layer, lt, m);
    return ls && { ls, pooled: true };
  }
  // To 12 digits: a turning layer's scale (the root of the matrix's determinant) moves in its last bits from
  // frame to frame, and surfaces rendered that close are the same pixels.
  const scale = Number(pixelScale(m).toPrecision(12));
  const kept = cache.get(layer, scale, env.warn);
  if (kept) return { ls: kept, pooled: false };
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    env.warn(message);
  };
  const ls = layerSurface({ ...env, warn }, layer, lt, m);
  return ls && { ls, pooled: !cache.put(layer, scale, ls, warnings) };
}

/** Draws `layer` (with layer->device matrix `m`) onto `ctx` at `opacity` with composite operation `op`. */
export function drawLayer(
  env: ComposeEnv,
  ctx: SKRSContext2D,
  layer: Layer,
  m: Mat,
  opacity: number,
  op: GlobalCompositeOperation,
  t: number,
): void {
  const lt = layerTime(layer, t);
  const k = pixelScale(m);
  if (!(k > 0)) return;
  ctx.save();
  ctx.globalAlpha = opacity;
  ctx.globalCompositeOperation = op;
  try {
    if (drawsDirect(layer) && !layer.effects.some((e) => e.enabled)) {
      ctx.setTransform(...m);
      drawContent(env, ctx, layer, lt, k);
      return;
    }
    const shown = shownSurface(env, layer, lt, m);
    if (!shown) return;
    const { ls } = shown;
    ctx.setTransform(...mul(m, mul(translate(ls.rect.x, ls.rect.y), scaling(1 / ls.k, 1 / ls.k))));
    ctx.drawImage(ls.surface.canvas, 0, 0);
    if (shown.pooled) env.pool.release(ls.surface);
  } finally {
    ctx.restore();
  }
}
