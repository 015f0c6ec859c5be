/** Axis-aligned rectangles in layer units. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function inflate(r: Rect, by: number): Rect {
  return { x: r.x - by, y: r.y - by, w: r.w + 2 * by, h: r.h + 2 * by };
}

/** The smallest rectangle holding both (an empty one, w or h <= 0, holds nothing). */
export function union(a: Rect, b: Rect): Rect {
  if (b.w <= 0 || b.h <= 0) return a;
  if (a.w <= 0 || a.h <= 0) return b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}
