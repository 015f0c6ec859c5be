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
