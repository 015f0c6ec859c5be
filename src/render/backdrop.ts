/**
 * Flattening onto the comp background. Compositing happens on transparent black (blend modes and adjustment
 * layers must not see the background, as in After Effects), and the background goes under the result.
 * That extra full-frame pass is skipped when it cannot change anything, or moved first when it is exact.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { valueAt, type Composition, type Layer, type Vec2 } from '../engine/core.js';
import { parseColor } from '../engine/color.js';
import { css } from './paint.js';
import { layerTime, withinInOut } from '../engine/layer-transform.js';

function visible(layer: Layer, t: number): boolean {
  return layer.enabled && layer.source.kind !== 'null' && withinInOut(layer, t);
}

/**
 * 'first': the background can be drawn before the layers (only normal blending at the top level, so
 * "background under everything" equals "background first"); 'skip': the bottom visible layer is an opaque,
 * unrotated solid covering the whole frame; 'after': draw it under the result at the end.
 */
export function backdropPlan(comp: Composition, t: number): 'first' | 'skip' | 'after' {
  const mattes = new Set(comp.layers.flatMap((l) => (l.trackMatte ? [l.trackMatte.layer] : [])));
  const shown = comp.layers.filter((l) => visible(l, t) && !mattes.has(l.id));
  const bottom = shown[shown.length - 1];
  if (bottom && coversFrame(comp, bottom, t)) return 'skip';
  const plain = shown.every((l) => l.blendMode === 'normal' && l.source.kind !== 'adjustment');
  return plain ? 'first' : 'after';
}

function coversFrame(comp: Composition, layer: Layer, t: number): boolean {
  const src = layer.source;
  if (src.kind !== 'solid' || layer.parent !== null || layer.trackMatte !== null) return false;
  if (layer.effects.some((e) => e.enabled)) return false;
  const lt = layerTime(layer, t);
  const tr = layer.transform;
  if (valueAt<number>(tr.opacity, lt) < 100 || valueAt<number>(tr.rotation, lt) % 360 !== 0) return false;
  if ((parseColor(valueAt<string>(src.color, lt))?.[3] ?? 0) < 1) return false;
  const [ax, ay] = valueAt<Vec2>(tr.anchorPoint, lt);
  const [px, py] = valueAt<Vec2>(tr.position, lt);
  const [sx, sy] = valueAt<Vec2>(tr.scale, lt).map((v) => v / 100) as [number, number];
  if (sx <= 0 || sy <= 0) return false;
  const x0 = px - ax * sx;
  const y0 = py - ay * sy;
  return x0 <= 0 && y0 <= 0 && x0 + src.width * sx >= comp.width && y0 + src.height * sy >= comp.height;
}

/** Fills the background (its alpha ignored: a flattened frame is opaque) under or over what is there. */
export function fillBackdrop(
  ctx: SKRSContext2D,
  comp: Composition,
  width: number,
  height: number,
  under: boolean,
): void {
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = under ? 'destination-over' : 'source-over';
  ctx.fillStyle = css(comp.backgroundColor.slice(0, 7));
  ctx.fillRect(0, 0, width, height);
  ctx.restore();
}
