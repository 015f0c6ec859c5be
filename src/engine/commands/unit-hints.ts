/**
 * Warnings for values that are valid but most likely given in the wrong unit: an agent that reads "scale 1.5"
 * as a factor draws its layer at 1.5% and sees nothing wrong in the result. The edit is made (the value is legal);
 * the warning says what it means and what was probably meant, as layer.setTimeMap's freezeAt hint does.
 */
import type { Composition, Layer } from '../model.js';

type Warn = (message: string) => void;

/** Percent properties given as a factor or fraction: scale [1.5, 1.5], opacity 0.5. */
export function warnUnitOfValue(property: string, value: unknown, warn: Warn): void {
  if (property === 'transform.scale' && Array.isArray(value)) {
    const v = value as number[];
    if (v.every((n) => n !== 0 && Math.abs(n) <= 4))
      warn(
        `transform.scale is in percent: [${v.join(', ')}] draws the layer at ${v.map((n) => `${Math.abs(n)}%`).join(' by ')} of its size. ` +
          `For ${v.length > 1 ? 'factors' : 'a factor'} of ${v.join(', ')}, pass [${v.map(percent).join(', ')}].`,
      );
  }
  // 1 is "fully opaque" as a fraction, and 1% nearly invisible: the likeliest slip of all.
  if (property === 'transform.opacity' && typeof value === 'number' && value > 0 && value <= 1)
    warn(
      value === 1
        ? 'transform.opacity is in percent (0 to 100): 1 is nearly invisible. For fully opaque, pass 100.'
        : `transform.opacity is in percent (0 to 100): ${value} is nearly invisible. For ${percent(value)}%, pass ${percent(value)}.`,
    );
}

/** `n` as a percentage, without the float noise of n * 100 (0.07 * 100 is 7.000000000000001). */
const percent = (n: number) => Number((n * 100).toPrecision(12));

/** A keyframe the composition never reaches (layer time past its end): frames given for seconds, most often. */
export function warnKeyframePastEnd(comp: Composition, layer: Layer, time: number, warn: Warn): void {
  const at = layer.startTime + time;
  if (at <= comp.duration) return;
  const asFrame = time / comp.frameRate;
  warn(
    `The keyframe at ${time} s of layer time is at ${at} s of the composition, past its end (${comp.duration} s): ` +
      `no frame shows it. Times are seconds, not frames: frame ${time} at ${comp.frameRate} fps is ${+asFrame.toFixed(3)} s.`,
  );
}

/** A layer timed wholly outside its composition: never seen or heard. */
export function warnOutsideComp(comp: Composition, inPoint: number, outPoint: number, warn: Warn): void {
  if (outPoint > 0 && inPoint < comp.duration) return;
  warn(
    `The layer now lasts from ${inPoint} s to ${outPoint} s, wholly outside the composition (0 to ${comp.duration} s): ` +
      `it is never seen or heard. Times are comp seconds, not frames (frame N is N / ${comp.frameRate} s).`,
  );
}
