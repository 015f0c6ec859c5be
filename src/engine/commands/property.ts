/** Setting property values and keyframes through property paths (see properties.ts). */
import { z } from 'zod';
import { defineCommand, DESTRUCTIVE_EDIT, IDEMPOTENT_EDIT } from '../catalog.js';
import { EngineError } from '../errors.js';
import { valueAt } from '../keyframes.js';
import { EaseHandle, Interpolation, type Keyframe, type Project } from '../model.js';
import {
  coerceValue,
  draftAnimatable,
  propertyExists,
  PROPERTY_PATHS,
  propertyValueWords,
  readAnimatable,
  readProperty,
  resolveProperty,
  setPlain,
  type PropertyRef,
} from '../properties.js';
import { checkHasPicture, checkHasSound } from '../audio-streams.js';
import { draftLayer, findComp, findLayer, layerPath } from '../resolve.js';
import { checkFontFamily, needsComp, warnMissingGlyphs } from './layer-add.js';
import { CompRef, LayerRef } from './params.js';
import { warnKeyframePastEnd, warnUnitOfValue } from './unit-hints.js';

const Path = z
  .string()
  .min(1)
  .describe(`Property path: ${PROPERTY_PATHS.join(', ')}`);
const Value = z.unknown().describe(propertyValueWords());
// As in CSS cubic-bezier(x1, y1, x2, y2) over the segment between two keys (see docs/engine.md).
const EASE_WORDS =
  'Bezier handle [x, y] as in CSS cubic-bezier over the segment between two keys: easeOut is (x1, y1) of the segment to the next key, easeIn is (x2, y2) of the segment from the previous key; x is time, 0 to 1, y the share of the value change (e.g. easeOut [0.333, 0], easeIn [0.667, 1])';
const Dimension = z
  .enum(['x', 'y'])
  .optional()
  .describe(
    '[x, y] properties only: set just this component to the number in "value", keeping the other as it is when the edit runs (so two editors changing x and y at once do not undo each other)',
  );

/**
 * The full value for a one-component edit: `current` with x or y replaced by `value`. `current` is read when the
 * edit runs, in the engine's edit order, so the other component is never a stale copy from the caller.
 */
function withDimension(
  ref: PropertyRef,
  current: unknown,
  value: unknown,
  dimension: 'x' | 'y',
  path: string,
): [number, number] {
  if (ref.type !== 'vec2') {
    throw new EngineError(
      'bad_argument',
      `"dimension" applies to [x, y] properties; "${path}" is a ${ref.type}.`,
      'Leave out "dimension" and pass the whole value.',
    );
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new EngineError(
      'bad_argument',
      `With "dimension": "${dimension}", "value" must be one finite number; got ${JSON.stringify(value)}.`,
      'Pass the new x or y as a number, or leave out "dimension" and pass [x, y].',
    );
  }
  const [x, y] = current as [number, number];
  return dimension === 'x' ? [value, y] : [x, value];
}
// Keyframes closer than this are the same keyframe (half a frame at 1000 fps).
const SAME_TIME = 5e-4;

/** Resolves comp, layer and an animatable property; a static property is bad_argument naming the remedy. */
function animatable(doc: Project, p: { comp?: string; layer: string; property: string }) {
  const comp = findComp(doc, p.comp);
  const layer = findLayer(comp, p.layer);
  const ref = resolveProperty(layer, p.property);
  if (p.property === 'audio.level') checkHasSound(doc, layer);
  if (!ref.animatable) {
    throw new EngineError(
      'bad_argument',
      `"${p.property}" is not animatable, so it has no keyframes.`,
      'Set it with property.set.',
    );
  }
  return { comp, layer, ref };
}

/** Where a key at `time` goes in `keys` (sorted by time), and the keyframe already at that time, or -1. */
function place(keys: readonly Keyframe[], time: number): { at: number; same: number } {
  // Binary search: a baked track holds thousands of keys, and keys are mostly added at its end.
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]!.time > time) hi = mid;
    else lo = mid + 1;
  }
  let same = -1;
  for (let i = lo - 1; i >= 0 && time - keys[i]!.time < SAME_TIME; i--) same = i;
  if (same < 0 && lo < keys.length && keys[lo]!.time - time < SAME_TIME) same = lo;
  return { at: lo, same };
}

/** Where the property's keyframe list is in the document, for ctx.insert and ctx.remove. */
function keyframesPath(doc: Project, compId: string, layerId: string, ref: PropertyRef) {
  return [...layerPath(doc, compId, layerId), ...ref.path, 'keyframes'];
}

export const propertySet = defineCommand({
  id: 'property.set',
  title: 'Set Property Value',
  category: 'Property',
  description:
    'Sets a static property value. An animated property (one with keyframes) is refused: change its keyframes with property.setKeyframe, or remove them with property.clearKeyframes first.',
  example: { layer: 'Hello', property: 'transform.opacity', value: 50 },
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    property: Path,
    value: Value,
    dimension: Dimension,
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const layer = findLayer(comp, p.layer);
    const ref = resolveProperty(layer, p.property);
    if (p.property === 'audio.level') checkHasSound(ctx.doc, layer);
    checkHasPicture(ctx.doc, layer, p.property);
    const raw =
      p.dimension === undefined
        ? p.value
        : withDimension(
            ref,
            ref.animatable ? readAnimatable(layer, ref).value : readProperty(layer, ref),
            p.value,
            p.dimension,
            p.property,
          );
    const value = coerceValue(ref, raw, p.property);
    if (p.property === 'text.fontFamily') checkFontFamily(value as string, ctx);
    if (p.property === 'text.text') warnMissingGlyphs(value as string, ctx);
    if (ref.animatable && readAnimatable(layer, ref).keyframes.length) {
      throw new EngineError(
        'bad_argument',
        `"${p.property}" of "${layer.name}" is animated; a static value would be ignored.`,
        'Use property.setKeyframe to change a keyframe, or property.clearKeyframes first.',
      );
    }
    ctx.update((d) => {
      const l = draftLayer(d, comp.id, layer.id);
      if (ref.animatable) draftAnimatable(l, ref).value = value as never;
      else setPlain(l, ref, value);
    });
    warnUnitOfValue(p.property, value, ctx.warn);
    return { layer: layer.id, property: p.property, value };
  },
});

export const propertySetKeyframe = defineCommand({
  id: 'property.setKeyframe',
  title: 'Set Keyframe',
  category: 'Property',
  description:
    'Adds or replaces a keyframe at a time (seconds, layer time). interpolation: linear (default), hold, or bezier with easeIn/easeOut handles [x, y] as in CSS cubic-bezier.',
  example: {
    layer: 'Hello',
    property: 'transform.position',
    time: 1,
    value: [960, 540],
    easeOut: [0.333, 0],
    easeIn: [0.667, 1],
  },
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    property: Path,
    time: z.number().min(0).describe("Seconds, in layer time (comp time minus the layer's startTime)"),
    value: Value,
    dimension: Dimension,
    interpolation: Interpolation.optional(),
    easeIn: EaseHandle.optional().describe(EASE_WORDS),
    easeOut: EaseHandle.optional().describe(EASE_WORDS),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer, ref } = animatable(ctx.doc, p);
    // Removing or clearing keys stays allowed: a layer relinked from a video to a sound file may carry some.
    checkHasPicture(ctx.doc, layer, p.property);
    // One component: the other is the property's value at that time as the document has it now.
    const raw =
      p.dimension === undefined
        ? p.value
        : withDimension(ref, valueAt(readAnimatable(layer, ref), p.time), p.value, p.dimension, p.property);
    const value = coerceValue(ref, raw, p.property);
    const interpolation = p.interpolation ?? (p.easeIn || p.easeOut ? 'bezier' : 'linear');
    const key: Keyframe = { time: p.time, value, interpolation } as Keyframe;
    if (p.easeIn) key.easeIn = p.easeIn;
    if (p.easeOut) key.easeOut = p.easeOut;
    const keys = readAnimatable(layer, ref).keyframes;
    const { at, same } = place(keys, p.time);
    if (same >= 0) {
      ctx.update((d) => void (draftAnimatable(draftLayer(d, comp.id, layer.id), ref).keyframes[same] = key));
    } else {
      // A stroke or fill the layer does not have yet is created first; then the key goes in at its place in time.
      if (!propertyExists(layer, ref))
        ctx.update((d) => void draftAnimatable(draftLayer(d, comp.id, layer.id), ref));
      ctx.insert(keyframesPath(ctx.doc, comp.id, layer.id, ref), at, key);
    }
    const count = keys.length + (same >= 0 ? 0 : 1);
    warnUnitOfValue(p.property, value, ctx.warn);
    warnKeyframePastEnd(comp, layer, p.time, ctx.warn);
    return { layer: layer.id, property: p.property, time: p.time, value, interpolation, keyframes: count };
  },
});

export const propertyRemoveKeyframe = defineCommand({
  id: 'property.removeKeyframe',
  title: 'Remove Keyframe',
  category: 'Property',
  description:
    'Removes the keyframe at a time. Removing the last keyframe leaves its value as the static value.',
  example: { layer: 'Hello', property: 'transform.position', time: 1 },
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    property: Path,
    time: z.number().min(0).describe("Seconds, in layer time (comp time minus the layer's startTime)"),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer, ref } = animatable(ctx.doc, p);
    const existing = readAnimatable(layer, ref).keyframes;
    const at = place(existing, p.time).same;
    if (at < 0) {
      throw new EngineError(
        'not_found',
        `No keyframe of "${p.property}" at ${p.time}s. Keyframes: ${existing.map((k) => k.time).join(', ') || 'none'}.`,
        'Pass the time of an existing keyframe.',
      );
    }
    ctx.remove(keyframesPath(ctx.doc, comp.id, layer.id, ref), at);
    // The last keyframe's value stays as the static value.
    if (existing.length === 1)
      ctx.update(
        (d) => void (draftAnimatable(draftLayer(d, comp.id, layer.id), ref).value = existing[at]!.value),
      );
    return { layer: layer.id, property: p.property, removed: p.time, keyframes: existing.length - 1 };
  },
});

export const propertyClearKeyframes = defineCommand({
  id: 'property.clearKeyframes',
  title: 'Clear Keyframes',
  category: 'Property',
  description:
    'Removes every keyframe of a property, keeping the value at the given time (default 0) as its static value.',
  example: { layer: 'Hello', property: 'transform.position', keepValueAt: 0 },
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    property: Path,
    keepValueAt: z.number().min(0).optional().describe('Seconds, in layer time (default 0)'),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer, ref } = animatable(ctx.doc, p);
    const kept = valueAt(readAnimatable(layer, ref), p.keepValueAt ?? 0);
    // A stroke or fill the layer does not have has no keyframes: nothing to clear, nothing to create.
    if (propertyExists(layer, ref)) {
      ctx.update((d) => {
        const prop = draftAnimatable(draftLayer(d, comp.id, layer.id), ref);
        prop.keyframes = [];
        prop.value = kept as never;
      });
    }
    return { layer: layer.id, property: p.property, value: kept };
  },
});

export const propertyCommands = [
  propertySet,
  propertySetKeyframe,
  propertyRemoveKeyframe,
  propertyClearKeyframes,
];
