/** Evaluates layer transforms at a comp time, following parent chains (each layer at its own layer time). */
import { EngineError } from './errors.js';
import { valueAt } from './keyframes.js';
import type { Composition, Layer, Vec2 } from './model.js';
import { IDENTITY, layerMatrix, mul, type Mat } from './affine.js';

/** Layer time of `layer` at comp time `t`: keyframe times are relative to the layer's start time. */
export function layerTime(layer: Layer, t: number): number {
  return t - layer.startTime;
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
  const resolve = (layer: Layer, depth: number): Mat => {
    const hit = memo.get(layer.id);
    if (hit) return hit;
    if (depth > byId.size) {
      throw new EngineError(
        'bad_argument',
        `The parent chain of layer "${layer.name}" in "${comp.name}" loops.`,
        'Break the loop with layer.setParent (parent: null) on one of its layers.',
      );
    }
    const parent = layer.parent ? byId.get(layer.parent) : undefined;
    const base = parent ? resolve(parent, depth + 1) : IDENTITY;
    const m = mul(base, ownMatrix(layer, t));
    memo.set(layer.id, m);
    return m;
  };
  return (layer) => resolve(layer, 0);
}
