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
