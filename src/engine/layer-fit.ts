/**
 * layer.fit: scales and centres a layer's picture to its composition, as After Effects' Fit to Comp (and its
 * Width and Height variants), with the two modes video work asks for most: contain (all of the picture shows,
 * bars where the shapes differ) and cover (the frame is filled, edges cropped). A 4K clip in a 1080p comp, a
 * landscape clip in a vertical social cut. It sets values, and the layer keeps the mode: a footage item relinked
 * to a file of another size (footage.relink, a template's footage input) is fitted again by the same mode, as
 * long as nobody scaled or moved the layer since (then it is theirs, as a moved anchor is).
 */
import type { Draft } from 'immer';
import { z } from 'zod';
import type { CommandContext } from './catalog.js';
import { refuseSoundOnly } from './audio-streams.js';
import { EngineError } from './errors.js';
import { layerSize } from './layer-factory.js';
import { FIT_MODES, type Composition, type FitMode, type Layer, type Project, type Vec2 } from './model.js';
import { draftLayer } from './resolve.js';

export const FitModeParam = z
  .enum(FIT_MODES)
  .describe(
    'contain: the whole picture shows, as large as fits (bars where its shape differs from the frame); cover: the frame is filled, the picture cropped at two edges; stretch: exactly the frame, distorted if the shapes differ; width / height: the width (height) matches the frame, proportions kept',
  );

/** The scale (percent, x and y) that fits a `size` picture to `frame` in `mode`. */
export function fitScale(
  size: readonly [number, number],
  frame: readonly [number, number],
  mode: FitMode,
): Vec2 {
  const sx = frame[0] / size[0];
  const sy = frame[1] / size[1];
  const uniform = (s: number): Vec2 => [s * 100, s * 100];
  switch (mode) {
    case 'contain':
      return uniform(Math.min(sx, sy));
    case 'cover':
      return uniform(Math.max(sx, sy));
    case 'stretch':
      return [sx * 100, sy * 100];
    case 'width':
      return uniform(sx);
    case 'height':
      return uniform(sy);
  }
}

/** Six decimals: a value that reads cleanly in a document, and still places a 16K picture to a millionth of a pixel. */
const tidy = (n: number): number => Math.round(n * 1e6) / 1e6;

const STATIC_PARTS = [
  ['anchorPoint', 'transform.anchorPoint'],
  ['position', 'transform.position'],
  ['scale', 'transform.scale'],
] as const;

/**
 * Refuses what a fit cannot place honestly: a layer with no picture size, one placed through a parent, one whose
 * anchor, position or scale is animated (a fit sets one value for the whole layer).
 */
function checkFittable(ctx: CommandContext, comp: Composition, layer: Layer): [number, number] {
  refuseSoundOnly(ctx.doc, layer, 'to fit', 'Fit a layer with a picture: a video, still, solid or precomp.');
  const kind = layer.source.kind;
  const size =
    kind === 'footage' || kind === 'solid' || kind === 'precomp'
      ? layerSize(ctx.doc, comp, layer.source)
      : null;
  if (!size)
    throw new EngineError(
      'bad_argument',
      `Layer "${layer.name}" is a ${kind} layer; it has no picture size to fit to the composition.`,
      'Fit a footage, solid or precomp layer; size a text or shape layer with property.set transform.scale.',
    );
  if (layer.parent !== null)
    throw new EngineError(
      'bad_argument',
      `Layer "${layer.name}" is parented: its scale and position are in its parent's space, so a fit to the composition would not hold.`,
      `Unparent it first (layer.setParent {layer: "${layer.name}", parent: null}), then fit it.`,
    );
  for (const [key, path] of STATIC_PARTS)
    if (layer.transform[key].keyframes.length)
      throw new EngineError(
        'bad_argument',
        `"${path}" of "${layer.name}" is animated; a fit sets one value for the whole layer.`,
        `Remove its keyframes first (property.clearKeyframes {layer: "${layer.name}", property: "${path}"}), or set the keyframes' values with property.setKeyframe.`,
      );
  return size;
}

/**
 * The scale that fits a `size` picture to `frame` in `mode`, and the position that puts the picture's middle at
 * the frame's middle with the layer's anchor where it is (a layer point q lands at position + scale·(q − anchor)).
 */
export function fitValues(
  size: readonly [number, number],
  anchor: readonly number[],
  frame: readonly [number, number],
  mode: FitMode,
): { scale: Vec2; position: Vec2 } {
  const scale = fitScale(size, frame, mode);
  const position: Vec2 = [
    frame[0] / 2 - (scale[0] / 100) * (size[0] / 2 - anchor[0]!),
    frame[1] / 2 - (scale[1] / 100) * (size[1] / 2 - anchor[1]!),
  ];
  return { scale: scale.map(tidy) as Vec2, position: position.map(tidy) as Vec2 };
}

/**
 * Fits `layer` in `comp` (checked first) and records the mode on it (`layer.fit`), so a new file of another size
 * is fitted again (keepFitted). Returns the values set.
 */
export function fitLayer(
  ctx: CommandContext,
  comp: Composition,
  layer: Layer,
  mode: FitMode,
): { scale: Vec2; position: Vec2 } {
  const size = checkFittable(ctx, comp, layer);
  const set = fitValues(size, layer.transform.anchorPoint.value as Vec2, [comp.width, comp.height], mode);
  ctx.update((d) => {
    const l = draftLayer(d, comp.id, layer.id);
    l.transform.scale.value = set.scale;
    l.transform.position.value = set.position;
    l.fit = mode;
  });
  const rotation = layer.transform.rotation;
  if (rotation.keyframes.length || (rotation.value as number) % 180 !== 0)
    ctx.warn(
      `Layer "${layer.name}" is turned (transform.rotation ${rotation.keyframes.length ? 'animated' : `${rotation.value}°`}): the fit sized it as if upright, so its turned picture may not ${mode === 'cover' ? 'fill' : 'fit'} the frame.`,
    );
  return set;
}

const near = (a: unknown, b: readonly number[]): boolean =>
  Array.isArray(a) && a.length === 2 && Math.abs(a[0] - b[0]!) < 1e-5 && Math.abs(a[1] - b[1]!) < 1e-5;

type Size = { width: number; height: number };

/**
 * Whether a fitted layer still shows its fit for a picture of size `was`: scale and position as layer.fit set
 * them (none animated, no parent). A layer someone scaled or moved since is theirs, as a moved anchor is
 * (footage-anchor.ts).
 */
export function stillFitted(layer: Layer, frame: readonly [number, number], was: Size): boolean {
  const t = layer.transform;
  if (!layer.fit || layer.parent !== null) return false;
  if (t.scale.keyframes.length || t.position.keyframes.length || t.anchorPoint.keyframes.length) return false;
  const fit = fitValues([was.width, was.height], t.anchorPoint.value as Vec2, frame, layer.fit);
  return near(t.scale.value, fit.scale) && near(t.position.value, fit.position);
}

/** Fits a draft layer that stillFitted its old picture to its new one (`now`), with its anchor as it is now. */
export function refit(layer: Draft<Layer>, frame: readonly [number, number], now: Size): void {
  const fit = fitValues(
    [now.width, now.height],
    layer.transform.anchorPoint.value as Vec2,
    frame,
    layer.fit!,
  );
  layer.transform.scale.value = fit.scale;
  layer.transform.position.value = fit.position;
}

/**
 * A composition given another size: each of its layers still showing its fit for the old frame (stillFitted) is
 * fitted to the new one by its mode, so a vertical version made by comp.duplicate and comp.setSettings keeps its
 * clip filling the frame. Returns their names with their modes, for the warning. Call inside an immer recipe.
 */
export function refitForFrame(doc: Project, was: Composition, draft: Draft<Composition>): string[] {
  const [oldFrame, newFrame] = [[was.width, was.height] as const, [draft.width, draft.height] as const];
  if (oldFrame[0] === newFrame[0] && oldFrame[1] === newFrame[1]) return [];
  const told: string[] = [];
  for (const layer of was.layers) {
    const size = layer.fit ? layerSize(doc, was, layer.source) : null;
    if (!size || !stillFitted(layer, oldFrame, { width: size[0], height: size[1] })) continue;
    const target = draft.layers.find((l) => l.id === layer.id);
    if (!target) continue;
    refit(target, newFrame, { width: size[0], height: size[1] });
    told.push(`"${layer.name}" (${layer.fit})`);
  }
  return told;
}
