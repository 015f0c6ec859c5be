/**
 * 2D affine matrices in canvas order [a, b, c, d, e, f] (x' = a*x + c*y + e, y' = b*x + d*y + f), and the
 * After Effects layer transform built from them.
 */
export type Mat = readonly [number, number, number, number, number, number];

export const IDENTITY: Mat = [1, 0, 0, 1, 0, 0];

/** m × n: applies n first, then m (as canvas `transform` calls compose). */
export function mul(m: Mat, n: Mat): Mat {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

export function translate(x: number, y: number): Mat {
  return [1, 0, 0, 1, x, y];
}

export function scaling(sx: number, sy: number): Mat {
  return [sx, 0, 0, sy, 0, 0];
}

/** Device pixels per layer unit: the geometric mean of the axis scales (sqrt |det|). */
export function pixelScale(m: Mat): number {
  return Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
}

export interface TransformValues {
  anchor: readonly [number, number];
  position: readonly [number, number];
  /** Percent, as in After Effects. */
  scale: readonly [number, number];
  /** Degrees, clockwise on screen. */
  rotation: number;
}

/** Layer space -> parent space: translate(position) · rotate · scale · translate(-anchor). */
export function layerMatrix(t: TransformValues): Mat {
  const r = (t.rotation * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const sx = t.scale[0] / 100;
  const sy = t.scale[1] / 100;
  const a = cos * sx;
  const b = sin * sx;
  const c = -sin * sy;
  const d = cos * sy;
  return [
    a,
    b,
    c,
    d,
    t.position[0] - (a * t.anchor[0] + c * t.anchor[1]),
    t.position[1] - (b * t.anchor[0] + d * t.anchor[1]),
  ];
}

/** The inverse matrix, or null when it is singular (a zero scale). */
export function invert(m: Mat): Mat | null {
  const det = m[0] * m[3] - m[1] * m[2];
  if (Math.abs(det) < 1e-12) return null;
  const [a, b, c, d, e, f] = m;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/**
 * The position, scale and rotation that give matrix `m` for a layer with anchor `anchor` (the inverse of
 * layerMatrix). A skew, which a layer transform cannot express, is dropped.
 */
export function decompose(m: Mat, anchor: readonly [number, number]): Omit<TransformValues, 'anchor'> {
  const [a, b, c, d, e, f] = m;
  const sx = Math.hypot(a, b);
  const rotation = (Math.atan2(b, a) * 180) / Math.PI;
  const sy = sx === 0 ? Math.hypot(c, d) : (a * d - b * c) / sx;
  return {
    position: [e + a * anchor[0] + c * anchor[1], f + b * anchor[0] + d * anchor[1]],
    scale: [sx * 100, sy * 100],
    rotation,
  };
}
