/** Setting property values and keyframes through property paths (see properties.ts). */
import { z } from 'zod';
import { defineCommand, DESTRUCTIVE_EDIT, IDEMPOTENT_EDIT } from '../catalog.js';
import { EngineError } from '../errors.js';
import { valueAt } from '../keyframes.js';
import { EaseHandle, Interpolation, type AnimatableProperty, type Keyframe, type Project } from '../model.js';
import { coerceValue, PROPERTY_PATHS, resolveProperty } from '../properties.js';
import { draftLayer, findComp, findLayer } from '../resolve.js';
import { checkFontFamily, needsComp, warnMissingGlyphs } from './layer-add.js';
import { CompRef, LayerRef } from './params.js';

const Path = z
  .string()
  .min(1)
  .describe(`Property path: ${PROPERTY_PATHS.join(', ')}`);
const Value = z.unknown().describe('A number, [x, y], a colour, or a string, depending on the property');
// Keyframes closer than this are the same keyframe (half a frame at 1000 fps).
const SAME_TIME = 5e-4;

/** Resolves comp, layer and an animatable property; a static property is bad_argument naming the remedy. */
function animatable(doc: Project, p: { comp?: string; layer: string; property: string }) {
  const comp = findComp(doc, p.comp);
  const layer = findLayer(comp, p.layer);
  const ref = resolveProperty(layer, p.property);
  if (!ref.animatable) {
    throw new EngineError(
      'bad_argument',
      `"${p.property}" is not animatable, so it has no keyframes.`,
      'Set it with property.set.',
    );
  }
  return { comp, layer, ref };
}

export const propertySet = defineCommand({
  id: 'property.set',
  title: 'Set Property Value',
  category: 'Property',
  description:
    'Sets a static property value. An animated property (one with keyframes) is refused: change its keyframes with property.setKeyframe, or remove them with property.clearKeyframes first.',
  params: z.strictObject({ comp: CompRef.optional(), layer: LayerRef, property: Path, value: Value }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const layer = findLayer(comp, p.layer);
    const ref = resolveProperty(layer, p.property);
    const value = coerceValue(ref, p.value, p.property);
    if (p.property === 'text.fontFamily') checkFontFamily(value as string, ctx);
    if (p.property === 'text.text') warnMissingGlyphs(value as string, ctx);
    if (ref.animatable) {
      if (ref.get(layer)?.keyframes.length) {
        throw new EngineError(
          'bad_argument',
          `"${p.property}" of "${layer.name}" is animated; a static value would be ignored.`,
          'Use property.setKeyframe to change a keyframe, or property.clearKeyframes first.',
        );
      }
    }
    ctx.update((d) => {
      const l = draftLayer(d, comp.id, layer.id);
      if (ref.animatable) (ref.get(l) as { value: unknown }).value = value;
      else ref.set(l, value);
    });
    return { layer: layer.id, property: p.property, value };
  },
});

export const propertySetKeyframe = defineCommand({
  id: 'property.setKeyframe',
  title: 'Set Keyframe',
  category: 'Property',
  description:
    'Adds or replaces a keyframe at a time (seconds, layer time). interpolation: linear (default), hold, or bezier with easeIn/easeOut handles [x, y] as in CSS cubic-bezier.',
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    property: Path,
    time: z.number().min(0),
    value: Value,
    interpolation: Interpolation.optional(),
    easeIn: EaseHandle.optional(),
    easeOut: EaseHandle.optional(),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer, ref } = animatable(ctx.doc, p);
    const value = coerceValue(ref, p.value, p.property);
    const interpolation = p.interpolation ?? (p.easeIn || p.easeOut ? 'bezier' : 'linear');
    const key: Keyframe = { time: p.time, value, interpolation } as Keyframe;
    if (p.easeIn) key.easeIn = p.easeIn;
    if (p.easeOut) key.easeOut = p.easeOut;
    let count = 0;
    ctx.update((d) => {
      const prop = ref.get(draftLayer(d, comp.id, layer.id)) as AnimatableProperty;
      const keys = prop.keyframes as Keyframe[];
      const at = keys.findIndex((k) => Math.abs(k.time - p.time) < SAME_TIME);
      if (at >= 0) keys[at] = key;
      else {
        keys.push(key);
        keys.sort((a, b) => a.time - b.time);
      }
      count = keys.length;
    });
    return { layer: layer.id, property: p.property, time: p.time, value, interpolation, keyframes: count };
  },
});

export const propertyRemoveKeyframe = defineCommand({
  id: 'property.removeKeyframe',
  title: 'Remove Keyframe',
  category: 'Property',
  description:
    'Removes the keyframe at a time. Removing the last keyframe leaves its value as the static value.',
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    property: Path,
    time: z.number().min(0),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer, ref } = animatable(ctx.doc, p);
    const existing = ref.get(layer).keyframes;
    const at = existing.findIndex((k) => Math.abs(k.time - p.time) < SAME_TIME);
    if (at < 0) {
      throw new EngineError(
        'not_found',
        `No keyframe of "${p.property}" at ${p.time}s. Keyframes: ${existing.map((k) => k.time).join(', ') || 'none'}.`,
        'Pass the time of an existing keyframe.',
      );
    }
    ctx.update((d) => {
      const prop = ref.get(draftLayer(d, comp.id, layer.id)) as { value: unknown; keyframes: Keyframe[] };
      const [removed] = prop.keyframes.splice(at, 1);
      if (prop.keyframes.length === 0 && removed) prop.value = removed.value;
    });
    return { layer: layer.id, property: p.property, removed: p.time, keyframes: existing.length - 1 };
  },
});

export const propertyClearKeyframes = defineCommand({
  id: 'property.clearKeyframes',
  title: 'Clear Keyframes',
  category: 'Property',
  description:
    'Removes every keyframe of a property, keeping the value at the given time (default 0) as its static value.',
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    property: Path,
    keepValueAt: z.number().min(0).optional(),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer, ref } = animatable(ctx.doc, p);
    const kept = valueAt(ref.get(layer), p.keepValueAt ?? 0);
    ctx.update((d) => {
      const prop = ref.get(draftLayer(d, comp.id, layer.id)) as { value: unknown; keyframes: Keyframe[] };
      prop.keyframes = [];
      prop.value = kept;
    });
    return { layer: layer.id, property: p.property, value: kept };
  },
});

export const propertyCommands = [
  propertySet,
  propertySetKeyframe,
  propertyRemoveKeyframe,
  propertyClearKeyframes,
];
