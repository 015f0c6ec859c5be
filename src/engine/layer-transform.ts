/** Evaluates layer transforms at a comp time, following parent chains (each layer at its own layer time). */
import { EngineError } from './errors.js';
import { SAME_TIME, valueAt } from './keyframes.js';
import type { Composition, Layer, Vec2 } from './model.js';
import { IDENTITY, layerMatrix, mul, type Mat } from './affine.js';

/** Layer time of `layer` at comp time `t`: keyframe times are relative to the layer's start time. */
export function layerTime(layer: Layer, t: number): number {
  return t - layer.startTime;
}

/**
 * Whether comp time `t` is within the layer's in/out range (out point exclusive). Within SAME_TIME counts as on
 * the point: in a precomp, comp time is the precomp layer's layer time, a subtraction a hair short of the frame an
 * in point was set on, and the layer appeared a frame late.
 */
export function withinInOut(layer: Layer, t: number): boolean {
  return t >= layer.inPoint - SAME_TIME && t < layer.outPoint - SAME_TIME;
}

/** The layer's own matrix (layer space -> parent space) at comp time `t`. */
export function ownMatrix(layer: Layer, t: number): Mat {
  const lt = layerTime(layer, t);
  const tr = layer.transform;
  return layerMatrix({
    anchor: valueAt<Vec2>(tr.anchorPoint, lt),
    position: valueAt<Vec2>(tr.position, lt),
    scale: valueAt<Vec2>(tr.scale, lt),
    rotation: valueAt<number>(tr.rotation, lt),
  });
}

/**
 * Layer space -> comp space for every layer of `comp` at comp time `t`, parents included.
 * Memoised per call so a parent shared by many children is evaluated once.
 */
export function worldMatrices(comp: Composition, t: number): (layer: Layer) => Mat {
  const byId = new Map(comp.layers.map((l) => [l.id, l]));
  const memo = new Map<string, Mat>();
  // A loop, not recursion: a chain may be as long as the composition has layers (10,000), and a recursive walk
  // overflowed the stack on a chain of 10,000 ("frame.save failed unexpectedly: Maximum call stack size exceeded").
  return (layer) => {
    const chain: Layer[] = [];
    let base = IDENTITY;
    for (let up: Layer | undefined = layer; up; up = up.parent ? byId.get(up.parent) : undefined) {
      const hit = memo.get(up.id);
      if (hit) {
        base = hit;
        break;
      }
      if (chain.length > byId.size) {
        throw new EngineError(
          'bad_argument',
          `The parent chain of layer "${layer.name}" in "${comp.name}" loops.`,
          'Break the loop with layer.setParent (parent: null) on one of its layers.',
        );
      }
      chain.push(up);
    }
    // From the topmost parent not yet known down to `layer`, each memoised for the layers that share it.
    for (let i = chain.length - 1; i >= 0; i--) {
      base = mul(base, ownMatrix(chain[i]!, t));
      memo.set(chain[i]!.id, base);
    }
    return base;
  };
}
