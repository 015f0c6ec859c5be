/**
 * Where the layers above a footage plate can have painted: rectangles of the frame that hold every pixel with
 * any alpha, so a plate render composes, reads back and blends only those (renderer.ts, composeParts) instead
 * of the whole 8 MB frame. A lower third, a logo and a title cover a fifth of a 1080p frame.
 *
 * Each layer contributes the limit its drawing cannot paint past (layer-draw.ts, paintLimit), taken through
 * its matrix to the frame, rounded out, grown by the pixels antialiasing and smoothing may spread, and kept
 * inside the frame at even coordinates (the 2x2 chroma blocks). Overlapping rectangles are merged, so each
 * pixel is blended once. When they would cover most of the frame, composing it whole is cheaper: null.
 */
import type { Composition, Layer, Project } from '../engine/index.js';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { worldMatrices } from '../engine/layer-transform.js';
import { drawnLayers } from './compositor.js';
import { paintLimit } from './layer-draw.js';
import type { Mat } from '../engine/affine.js';
import type { Rect } from './bounds.js';

/** Past this share of the frame, the whole frame is composed instead. */
const MOST_OF_FRAME = 0.6;

/** What the rectangles are measured with: the document, and a context for measuring text. */
export interface RectsEnv {
  doc: Project;
  measure: SKRSContext2D;
}

/** A plate's frame: `comp` at time `t`, drawn `width` x `height` (its own size), `hidden` the plate layer. */
export interface PlateFrame {
  comp: Composition;
  t: number;
  width: number;
  height: number;
  hidden: Layer | undefined;
}

/** Device pixels, integers. */
export interface FrameRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A rectangle of a plate's frame and the layers that can paint in it, in drawing order: each layer's paint lies
 * wholly inside one rectangle (they are disjoint, and each holds the boxes merged into it), so these layers and
 * nothing else make its pixels.
 */
export interface PaintedRect extends FrameRect {
  layers: Layer[];
}

/** The device rectangle holding `r` (layer units) under `m`, grown by `spread` pixels, unclipped. */
function deviceBox(r: Rect, m: Mat, spread: number): [number, number, number, number] {
  const corners = [
    [r.x, r.y],
    [r.x + r.w, r.y],
    [r.x, r.y + r.h],
    [r.x + r.w, r.y + r.h],
  ].map(([x, y]) => [m[0] * x! + m[2] * y! + m[4], m[1] * x! + m[3] * y! + m[5]] as const);
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return [
    Math.floor(Math.min(...xs) - spread),
    Math.floor(Math.min(...ys) - spread),
    Math.ceil(Math.max(...xs) + spread),
    Math.ceil(Math.max(...ys) + spread),
  ];
}

const overlaps = (a: FrameRect, b: FrameRect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function merged(a: PaintedRect, b: PaintedRect, order: Map<Layer, number>): PaintedRect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
    layers: [...a.layers, ...b.layers].sort((p, q) => order.get(p)! - order.get(q)!),
  };
}

/**
 * Sizes step by this many pixels: a moving layer's rectangle then keeps its size from frame to frame, and so
 * do the pooled surface it is composed on and the buffer it is read back into. With sizes changing every frame
 * (a box at fractional positions), the allocator's churn held ~90 MB more per render worker.
 */
const SIZE_STEP = 32;

/** `r` grown to a multiple of SIZE_STEP a side (at most the frame's), moved back inside the frame if need be. */
function stepped(r: PaintedRect, width: number, height: number): PaintedRect {
  const w = Math.min(width, Math.ceil(r.width / SIZE_STEP) * SIZE_STEP);
  const h = Math.min(height, Math.ceil(r.height / SIZE_STEP) * SIZE_STEP);
  return { x: Math.min(r.x, width - w), y: Math.min(r.y, height - h), width: w, height: h, layers: r.layers };
}

/**
 * Disjoint stepped rectangles covering all of `rects` (overlapping ones replaced by their bounding box, until
 * none do), inside the `width` x `height` frame.
 */
function disjoint(rects: PaintedRect[], width: number, height: number): PaintedRect[] {
  const order = new Map(rects.flatMap((r) => r.layers).map((l, i) => [l, i]));
  const out = rects.map((r) => stepped(r, width, height));
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < out.length && !changed; i++)
      for (let j = i + 1; j < out.length && !changed; j++) {
        if (!overlaps(out[i]!, out[j]!)) continue;
        out[i] = stepped(merged(out[i]!, out[j]!, order), width, height);
        out.splice(j, 1);
        changed = true;
      }
  }
  return out;
}

/**
 * Disjoint rectangles of the frame holding everything its visible layers other than `hidden` (the plate) may
 * paint, each with the layers painting in it; null when that is not known.
 */
export function paintedRects(env: RectsEnv, frame: PlateFrame): PaintedRect[] | null {
  const { comp, t, width, height, hidden } = frame;
  const world = worldMatrices(comp, t);
  const rects: PaintedRect[] = [];
  // The layers the compositor draws (compositor.ts): a layer it draws and this skipped would be lost.
  for (const { layer } of drawnLayers(comp, t, hidden)) {
    // An adjustment layer changes pixels it did not paint (plates never have one above them).
    if (layer.source.kind === 'adjustment') return null;
    const m = world(layer);
    const limit = paintLimit(env, layer, m, t);
    if (!limit || limit.rect.w <= 0 || limit.rect.h <= 0) continue;
    const [x0, y0, x1, y1] = deviceBox(limit.rect, m, limit.spread);
    if (![x0, y0, x1, y1].every(Number.isFinite)) return null;
    // Even corners: every 2x2 chroma block is wholly in or out.
    const left = Math.max(0, x0 - (((x0 % 2) + 2) % 2));
    const top = Math.max(0, y0 - (((y0 % 2) + 2) % 2));
    const right = Math.min(width, x1 + (((x1 % 2) + 2) % 2));
    const bottom = Math.min(height, y1 + (((y1 % 2) + 2) % 2));
    if (right > left && bottom > top)
      rects.push({ x: left, y: top, width: right - left, height: bottom - top, layers: [layer] });
  }
  return disjoint(rects, width, height);
}

/**
 * What a plate render composes: paintedRects ([] when nothing is painted), or null for the whole frame (not
 * known, or most of it: one composition is then cheaper than several).
 */
export function graphicsRects(env: RectsEnv, frame: PlateFrame): PaintedRect[] | null {
  const rects = paintedRects(env, frame);
  const area = rects?.reduce((n, r) => n + r.width * r.height, 0) ?? Infinity;
  return area > MOST_OF_FRAME * frame.width * frame.height ? null : rects;
}
