/**
 * The compositor: draws a composition's layers bottom to top onto a surface, with blend modes, track mattes
 * and adjustment layers. Precomps recurse through `env.compose` with a cycle check.
 */
import { EngineError, valueAt, type Composition, type Layer, type MATTE_MODES } from '../engine/core.js';
import type { ComposeEnv } from './env.js';
import { applyEffects } from './effects.js';
import { drawLayer } from './layer-draw.js';
import { mul, pixelScale, type Mat } from '../engine/affine.js';
import { lumaToAlpha } from './pixels.js';
import { compositeOp } from './paint.js';
import type { Surface } from './surfaces.js';
import { layerTime, withinInOut, worldMatrices } from '../engine/layer-transform.js';

type MatteMode = (typeof MATTE_MODES)[number];

function opacityAt(layer: Layer, t: number): number {
  return Math.max(0, Math.min(1, valueAt<number>(layer.transform.opacity, layerTime(layer, t)) / 100));
}

/**
 * The layers of `comp` drawn at comp time `t`, bottom first, with their opacity: enabled, with content, in
 * their time range, not fully transparent, not used as a track matte (After Effects hides a layer while another
 * uses it as its matte), and not `hidden` (a footage plate, drawn elsewhere).
 */
export function drawnLayers(
  comp: Composition,
  t: number,
  hidden?: Layer,
): { layer: Layer; opacity: number }[] {
  const mattes = new Set(comp.layers.flatMap((l) => (l.trackMatte ? [l.trackMatte.layer] : [])));
  const drawn: { layer: Layer; opacity: number }[] = [];
  for (let i = comp.layers.length - 1; i >= 0; i--) {
    const layer = comp.layers[i]!;
    if (!layer.enabled || layer.source.kind === 'null' || mattes.has(layer.id) || !withinInOut(layer, t))
      continue;
    if (layer === hidden) continue;
    const opacity = opacityAt(layer, t);
    if (opacity > 0) drawn.push({ layer, opacity });
  }
  return drawn;
}

/**
 * Composes `comp` at comp time `t` into a new pooled `width` × `height` surface (transparent background);
 * `base` maps comp pixels to surface pixels; `prepare` may draw first (the backdrop). The caller releases it.
 */
export function composeComp(
  env: ComposeEnv,
  comp: Composition,
  t: number,
  width: number,
  height: number,
  base: Mat,
  prepare?: (surface: Surface) => void,
): Surface {
  if (env.stack.includes(comp.id)) {
    const names = [...env.stack, comp.id].join(' -> ');
    throw new EngineError(
      'bad_argument',
      `Composition "${comp.name}" contains itself through precomp layers (${names}).`,
      'Delete or change the precomp layer that closes the loop.',
    );
  }
  env.stack.push(comp.id);
  try {
    const out = env.pool.acquire(width, height);
    prepare?.(out);
    const world = worldMatrices(comp, t);
    for (const { layer, opacity } of drawnLayers(comp, t, env.hidden)) {
      const m = mul(base, world(layer));
      if (layer.source.kind === 'adjustment') {
        adjust(env, out, layer, comp, m, opacity, t);
        continue;
      }
      const matte = layer.trackMatte && comp.layers.find((l) => l.id === layer.trackMatte!.layer);
      if (layer.trackMatte && matte) {
        const mm = mul(base, world(matte));
        drawMatted(env, out, layer, m, opacity, t, matte, mm, layer.trackMatte.mode);
      } else {
        drawLayer(env, out.ctx, layer, m, opacity, compositeOp(layer.blendMode), t);
      }
    }
    return out;
  } finally {
    env.stack.pop();
  }
}

/** Draws `layer` through its track matte: both are drawn full-frame, then combined, then blended onto `out`. */
function drawMatted(
  env: ComposeEnv,
  out: Surface,
  layer: Layer,
  m: Mat,
  opacity: number,
  t: number,
  matte: Layer,
  mm: Mat,
  mode: MatteMode,
): void {
  const { width, height } = out.canvas;
  const content = env.pool.acquire(width, height);
  const mask = env.pool.acquire(width, height);
  try {
    drawLayer(env, content.ctx, layer, m, opacity, 'source-over', t);
    const matteOpacity = opacityAt(matte, t);
    if (withinInOut(matte, t) && matteOpacity > 0 && matte.source.kind !== 'adjustment') {
      drawLayer(env, mask.ctx, matte, mm, matteOpacity, 'source-over', t);
    }
    if (mode === 'luma' || mode === 'lumaInverted') lumaToAlpha(mask.canvas, mode === 'lumaInverted');
    content.ctx.globalCompositeOperation = mode === 'alphaInverted' ? 'destination-out' : 'destination-in';
    content.ctx.drawImage(mask.canvas, 0, 0);
    out.ctx.save();
    out.ctx.globalCompositeOperation = compositeOp(layer.blendMode);
    out.ctx.drawImage(content.canvas, 0, 0);
    out.ctx.restore();
  } finally {
    env.pool.release(content);
    env.pool.release(mask);
  }
}

/**
 * An adjustment layer: its effects run on a copy of everything below it; the copy replaces the original
 * inside the layer's rectangle (comp-sized layer space, transformed), mixed by the layer's opacity.
 */
function adjust(
  env: ComposeEnv,
  out: Surface,
  layer: Layer,
  comp: Composition,
  m: Mat,
  opacity: number,
  t: number,
): void {
  const effects = layer.effects.filter((e) => e.enabled);
  if (!effects.length) return;
  const { width, height } = out.canvas;
  const lt = layerTime(layer, t);
  const copy = env.pool.acquire(width, height);
  copy.ctx.drawImage(out.canvas, 0, 0);
  const done = applyEffects(env.pool, copy, effects, lt, pixelScale(m), env.warn);
  const area = env.pool.acquire(width, height);
  try {
    area.ctx.setTransform(...m);
    area.ctx.globalAlpha = opacity;
    area.ctx.fillStyle = '#000000';
    area.ctx.fillRect(0, 0, comp.width, comp.height);
    // result = original × (1 - area) + effected × area: cut the area out, then add the masked effected copy.
    done.ctx.globalCompositeOperation = 'destination-in';
    done.ctx.drawImage(area.canvas, 0, 0);
    out.ctx.save();
    out.ctx.globalCompositeOperation = 'destination-out';
    out.ctx.drawImage(area.canvas, 0, 0);
    out.ctx.globalCompositeOperation = 'lighter';
    out.ctx.drawImage(done.canvas, 0, 0);
    out.ctx.restore();
  } finally {
    env.pool.release(done);
    env.pool.release(area);
  }
}
