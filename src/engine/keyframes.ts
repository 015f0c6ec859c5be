/**
 * Keyframe evaluation: a pure `valueAt(property, time)`.
 *
 * A segment between keyframes k0 and k1 is shaped by k0's interpolation on the way out and k1's on the way in,
 * as in After Effects: `hold` keeps k0's value until k1; `bezier` uses k0.easeOut and k1.easeIn as the two
 * handles of a CSS-style cubic-bezier timing curve (default handles give "easy ease"); `linear` is a straight line.
 */
import { formatColor, parseColor } from './color.js';
import type { AnimatableProperty, EaseHandle, Keyframe, PropertyValue } from './model.js';

const DEFAULT_EASE_OUT: EaseHandle = [0.333, 0];
const DEFAULT_EASE_IN: EaseHandle = [0.667, 1];
const LINEAR_OUT: EaseHandle = [1 / 3, 1 / 3];
const LINEAR_IN: EaseHandle = [2 / 3, 2 / 3];

/**
 * Two times this close are the same instant. Layer time is comp time minus startTime, and that subtraction lands a
 * hair short of a key or in point set on the frame (0.3 - 0.1 = 0.19999999999999998, not 0.2): a hold key at 0.2
 * in a layer starting at 0.1 took effect a frame late. A nanosecond is far below any frame (1/240 s) and far above
 * float noise.
 */
export const SAME_TIME = 1e-9;
const ON_KEY = SAME_TIME;

/** The property's value at `time` (seconds, in the property's own time base). */
export function valueAt<T extends PropertyValue>(
  property: { value: T; keyframes: readonly Keyframe[] } | AnimatableProperty,
  time: number,
): T {
  const keys = property.keyframes as readonly (Keyframe & { value: T })[];
  const first = keys[0];
  if (!first) return property.value as T;
  if (time <= first.time + ON_KEY) return first.value;
  const last = keys[keys.length - 1]!;
  if (time >= last.time - ON_KEY) return last.value;
  // Binary search for the segment [k0, k1] containing time.
  let lo = 0;
  let hi = keys.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]!.time <= time + ON_KEY) lo = mid;
    else hi = mid;
  }
  const k0 = keys[lo]!;
  const k1 = keys[hi]!;
  if (k0.interpolation === 'hold') return k0.value;
  const t = Math.max(0, (time - k0.time) / (k1.time - k0.time));
  const out = k0.interpolation === 'bezier' ? (k0.easeOut ?? DEFAULT_EASE_OUT) : LINEAR_OUT;
  const inn = k1.interpolation === 'bezier' ? (k1.easeIn ?? DEFAULT_EASE_IN) : LINEAR_IN;
  const eased =
    k0.interpolation === 'linear' && k1.interpolation !== 'bezier'
      ? t
      : cubicBezier(out[0], out[1], inn[0], inn[1], t);
  return lerpValue(k0.value, k1.value, eased);
}

/** Whether the property has keyframes (is animated). */
export function isAnimated(property: AnimatableProperty): boolean {
  return property.keyframes.length > 0;
}

/** Linear blend of two values of the same type; colours blend per channel. */
export function lerpValue<T extends PropertyValue>(a: T, b: T, t: number): T {
  if (typeof a === 'number' && typeof b === 'number') return (a + (b - a) * t) as T;
  if (Array.isArray(a) && Array.isArray(b)) return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t] as T;
  if (typeof a === 'string' && typeof b === 'string') {
    const ca = parseColor(a);
    const cb = parseColor(b);
    if (!ca || !cb) return a;
    return formatColor(
      [0, 1, 2, 3].map((i) => ca[i]! + (cb[i]! - ca[i]!) * t) as [number, number, number, number],
    ) as T;
  }
  return a;
}

/**
 * Solves the CSS cubic-bezier timing function: finds s with bx(s) = x, returns by(s).
 * Newton's method with a bisection fallback, as browsers do; x1 and x2 are in 0..1 so bx is monotonic.
 */
export function cubicBezier(x1: number, y1: number, x2: number, y2: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const cx = 3 * x1;
  const bx = 3 * (x2 - x1) - cx;
  const ax = 1 - cx - bx;
  const cy = 3 * y1;
  const by = 3 * (y2 - y1) - cy;
  const ay = 1 - cy - by;
  const sampleX = (s: number) => ((ax * s + bx) * s + cx) * s;
  const sampleY = (s: number) => ((ay * s + by) * s + cy) * s;
  const slopeX = (s: number) => (3 * ax * s + 2 * bx) * s + cx;
  let s = x;
  for (let i = 0; i < 8; i++) {
    const err = sampleX(s) - x;
    if (Math.abs(err) < 1e-7) return sampleY(s);
    const d = slopeX(s);
    if (Math.abs(d) < 1e-6) break;
    s -= err / d;
  }
  let lo = 0;
  let hi = 1;
  s = x;
  for (let i = 0; i < 60; i++) {
    const v = sampleX(s);
    if (Math.abs(v - x) < 1e-7) break;
    if (v < x) lo = s;
    else hi = s;
    s = (lo + hi) / 2;
  }
  return sampleY(s);
}
