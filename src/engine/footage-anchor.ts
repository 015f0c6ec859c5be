/**
 * A footage layer given a file of another size (footage.relink, or a template's footage input): a layer turns
 * and scales about its footage's centre unless someone moved the anchor, so a centred anchor moves to the new
 * file's centre and the picture stays centred where it was on screen. An anchor set or animated by hand is the
 * user's and stays (After Effects' Replace Footage keeps the layer's properties the same way).
 */
import type { Draft } from 'immer';
import { refit, stillFitted } from './layer-fit.js';
import type { Layer } from './model.js';

type Size = { width: number; height: number };

const sameXY = (v: unknown, xy: readonly number[]): boolean =>
  Array.isArray(v) && v.length === 2 && Math.abs(v[0] - xy[0]!) < 1e-9 && Math.abs(v[1] - xy[1]!) < 1e-9;

/** Moves the draft layer's anchor from the centre of `was` to the centre of `now`; whether it did. */
export function keepAnchorCentred(layer: Draft<Layer>, was: Size, now: Size): boolean {
  if (was.width === now.width && was.height === now.height) return false;
  const anchor = layer.transform.anchorPoint;
  if (anchor.keyframes.length || !sameXY(anchor.value, [was.width / 2, was.height / 2])) return false;
  anchor.value = [now.width / 2, now.height / 2];
  return true;
}

/**
 * A layer's picture replaced by one of another size: the anchor follows (keepAnchorCentred), and a layer still
 * showing its layer.fit is fitted again to `frame` (its composition's size) by the same mode, so a template's
 * clip fills its frame whatever the size of the clip a render gives it. What changed, for the warnings.
 */
export function followNewPicture(
  layer: Draft<Layer>,
  frame: readonly [number, number],
  was: Size,
  now: Size,
): { recentred: boolean; refitted: boolean } {
  const fitted = stillFitted(layer, frame, was);
  const recentred = keepAnchorCentred(layer, was, now);
  const refitted = fitted && (was.width !== now.width || was.height !== now.height);
  if (refitted) refit(layer, frame, now);
  return { recentred, refitted };
}
