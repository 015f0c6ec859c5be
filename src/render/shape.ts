/** Shape layers: rectangle, ellipse, polygon/star and path geometry centred on the layer origin, with paint. */
import { Path2D, type SKRSContext2D } from '@napi-rs/canvas';
import { valueAt, type LayerSource, type ShapeGeometry, type Vec2 } from '../engine/core.js';
import type { Rect } from './bounds.js';
import { css } from './paint.js';

type ShapeSource = Extract<LayerSource, { kind: 'shape' }>;

export interface ShapeDrawing {
  path: Path2D;
  bounds: Rect;
  strokeWidth: number;
}

function rectPath(w: number, h: number, roundness: number): Path2D {
  const p = new Path2D();
  const x = -w / 2;
  const y = -h / 2;
  const r = Math.max(0, Math.min(roundness, w / 2, h / 2));
  if (r <= 0) {
    p.rect(x, y, w, h);
    return p;
  }
  p.moveTo(x + r, y);
  p.arcTo(x + w, y, x + w, y + h, r);
  p.arcTo(x + w, y + h, x, y + h, r);
  p.arcTo(x, y + h, x, y, r);
  p.arcTo(x, y, x + w, y, r);
  p.closePath();
  return p;
}

/** Builds the geometry at layer time `lt` and its bounds (without stroke). */
export function shapeGeometry(shape: ShapeGeometry, lt: number): { path: Path2D; bounds: Rect } {
  switch (shape.type) {
    case 'rectangle': {
      const [w, h] = valueAt<Vec2>(shape.size, lt).map((v) => Math.abs(v)) as [number, number];
      return {
        path: rectPath(w, h, valueAt<number>(shape.roundness, lt)),
        bounds: { x: -w / 2, y: -h / 2, w, h },
      };
    }
    case 'ellipse': {
      const [w, h] = valueAt<Vec2>(shape.size, lt).map((v) => Math.abs(v)) as [number, number];
      const p = new Path2D();
      p.ellipse(0, 0, w / 2, h / 2, 0, 0, Math.PI * 2);
      return { path: p, bounds: { x: -w / 2, y: -h / 2, w, h } };
    }
    case 'polygon': {
      const outer = Math.abs(valueAt<number>(shape.outerRadius, lt));
      const inner = shape.innerRadius ? Math.abs(valueAt<number>(shape.innerRadius, lt)) : null;
      const count = inner === null ? shape.points : shape.points * 2;
      const p = new Path2D();
      for (let i = 0; i < count; i++) {
        // First vertex points straight up, as After Effects' polystar.
        const a = -Math.PI / 2 + (i * 2 * Math.PI) / count;
        const r = inner !== null && i % 2 === 1 ? inner : outer;
        if (i === 0) p.moveTo(Math.cos(a) * r, Math.sin(a) * r);
        else p.lineTo(Math.cos(a) * r, Math.sin(a) * r);
      }
      p.closePath();
      const R = Math.max(outer, inner ?? 0);
      return { path: p, bounds: { x: -R, y: -R, w: 2 * R, h: 2 * R } };
    }
    case 'path': {
      const p = new Path2D();
      shape.points.forEach(([x, y], i) => (i === 0 ? p.moveTo(x, y) : p.lineTo(x, y)));
      if (shape.closed) p.closePath();
      const xs = shape.points.map((q) => q[0]);
      const ys = shape.points.map((q) => q[1]);
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      return { path: p, bounds: { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y } };
    }
  }
}

/** Bounds of the painted shape, stroke included (miter joins may reach 2 stroke widths out). */
export function shapeBounds(src: ShapeSource, lt: number): Rect {
  const { bounds } = shapeGeometry(src.shape, lt);
  const sw = src.stroke ? Math.max(0, valueAt<number>(src.stroke.width, lt)) : 0;
  const pad = sw * 2 + 1;
  return { x: bounds.x - pad, y: bounds.y - pad, w: bounds.w + 2 * pad, h: bounds.h + 2 * pad };
}

/** Whether drawing it needs more than one paint operation (fill and stroke overlap; opacity must apply once). */
export function shapeIsLayered(src: ShapeSource): boolean {
  return (src.fill !== null || src.gradient !== null) && src.stroke !== null;
}

/** Draws the shape with the context's current transform (layer units): fill or gradient, then stroke. */
export function drawShape(ctx: SKRSContext2D, src: ShapeSource, lt: number): void {
  const { path } = shapeGeometry(src.shape, lt);
  if (src.gradient) {
    const g = src.gradient;
    const grad =
      g.type === 'linear'
        ? ctx.createLinearGradient(g.start[0], g.start[1], g.end[0], g.end[1])
        : ctx.createRadialGradient(
            g.start[0],
            g.start[1],
            0,
            g.start[0],
            g.start[1],
            Math.hypot(g.end[0] - g.start[0], g.end[1] - g.start[1]),
          );
    for (const s of g.stops) grad.addColorStop(s.offset, css(s.color));
    ctx.fillStyle = grad;
    ctx.fill(path);
  } else if (src.fill) {
    ctx.fillStyle = css(valueAt<string>(src.fill.color, lt));
    ctx.fill(path);
  }
  if (src.stroke) {
    const w = valueAt<number>(src.stroke.width, lt);
    if (w > 0) {
      ctx.strokeStyle = css(valueAt<string>(src.stroke.color, lt));
      ctx.lineWidth = w;
      ctx.lineJoin = 'miter';
      ctx.miterLimit = 4;
      ctx.stroke(path);
    }
  }
}
