/** Adding, changing and removing effects on layers. */
import { z } from 'zod';
import { defineCommand, DESTRUCTIVE_EDIT, EDIT, IDEMPOTENT_EDIT } from '../catalog.js';
import {
  EFFECT_TYPE_NAMES,
  effectParam,
  effectParamWords,
  effectType,
  type EffectTypeSpec,
} from '../effect-types.js';
import { EngineError } from '../errors.js';
import { staticProp, type Effect } from '../model.js';
import { own } from '../own.js';
import { coerceValue } from '../properties.js';
import { draftLayer, findComp, findEffect, findLayer, newId } from '../resolve.js';
import { refuseSoundOnly } from '../audio-streams.js';
import { needsComp } from './layer-add.js';
import { CompRef, LayerRef } from './params.js';

const Params = z
  .record(z.string(), z.unknown())
  .describe(`Static values by parameter name (left out: the default). ${effectParamWords()}`);

/** The type of an effect, or bad_argument naming the known ones (a project file may hold any string). */
function knownType(type: string): EffectTypeSpec {
  const spec = effectType(type);
  if (!spec)
    throw new EngineError(
      'bad_argument',
      `Unknown effect "${type}".`,
      `Use one of: ${EFFECT_TYPE_NAMES.join(', ')}.`,
    );
  return spec;
}

function staticParams(
  type: string,
  given: Record<string, unknown>,
  base: Effect['params'],
): Effect['params'] {
  const spec = knownType(type);
  const out: Effect['params'] = { ...base };
  for (const [name, value] of Object.entries(given)) {
    const ps = effectParam(spec, name);
    if (!ps) {
      throw new EngineError(
        'bad_argument',
        `Effect ${type} has no parameter "${name}".`,
        `Its parameters: ${Object.keys(spec.params).join(', ')}.`,
      );
    }
    out[name] = staticProp(coerceValue(ps, value, `${type}.${name}`) as number) as Effect['params'][string];
  }
  return out;
}

export const effectAdd = defineCommand({
  id: 'effect.add',
  title: 'Add Effect',
  category: 'Effect',
  description: `Adds an effect to a layer (applied in layer space, before the transform, in stack order). Types: ${EFFECT_TYPE_NAMES.join(', ')}. Returns its id.`,
  example: { layer: 'Hello', effect: 'dropShadow', params: { distance: 12, opacity: 60 } },
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    effect: z.string().describe(`One of ${EFFECT_TYPE_NAMES.join(', ')}`),
    params: Params.optional(),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const layer = findLayer(comp, p.layer);
    // An effect on a sound file's layer would change nothing anyone sees or hears, and say it was added.
    refuseSoundOnly(
      ctx.doc,
      layer,
      'for an effect to change',
      'Add the effect to a layer with a picture (or to an adjustment layer above it); change its sound with audio.level or layer.setAudioMuted.',
    );
    const spec = knownType(p.effect);
    const defaults = Object.fromEntries(
      Object.entries(spec.params).map(([k, v]) => [k, staticProp(v.default as number)]),
    ) as Effect['params'];
    const params = staticParams(p.effect, p.params ?? {}, defaults);
    let id = '';
    ctx.update((d) => {
      id = newId(d, 'fx');
      draftLayer(d, comp.id, layer.id).effects.push({ id, type: p.effect, enabled: true, params });
    });
    return { id, layer: layer.id, effect: p.effect };
  },
});

export const effectSet = defineCommand({
  id: 'effect.set',
  title: 'Set Effect Parameters',
  category: 'Effect',
  description:
    'Sets static parameter values of an effect, or turns it on/off. To animate a parameter use property.setKeyframe with "effects.<id>.<param>".',
  example: { layer: 'Hello', effect: 'dropShadow', params: { angle: 90 } },
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    effect: z.string().describe('Effect id'),
    params: Params.optional(),
    enabled: z.boolean().optional(),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const layer = findLayer(comp, p.layer);
    const effect = findEffect(layer, p.effect);
    for (const name of Object.keys(p.params ?? {})) {
      if (own(effect.params, name)?.keyframes.length) {
        throw new EngineError(
          'bad_argument',
          `Parameter "${name}" of ${effect.id} is animated.`,
          `Use property.setKeyframe with property "effects.${effect.id}.${name}".`,
        );
      }
    }
    const params = staticParams(effect.type, p.params ?? {}, effect.params);
    ctx.update((d) => {
      const e = draftLayer(d, comp.id, layer.id).effects.find((x) => x.id === effect.id)!;
      e.params = params;
      if (p.enabled !== undefined) e.enabled = p.enabled;
    });
    return { id: effect.id, layer: layer.id };
  },
});

export const effectRemove = defineCommand({
  id: 'effect.remove',
  title: 'Remove Effect',
  category: 'Effect',
  description: 'Removes an effect from a layer.',
  example: { layer: 'Hello', effect: 'dropShadow' },
  params: z.strictObject({ comp: CompRef.optional(), layer: LayerRef, effect: z.string() }),
  pathParams: {},
  enabled: needsComp,
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const layer = findLayer(comp, p.layer);
    const effect = findEffect(layer, p.effect);
    ctx.update((d) => {
      const l = draftLayer(d, comp.id, layer.id);
      l.effects = l.effects.filter((e) => e.id !== effect.id);
    });
    return { id: effect.id, removed: true };
  },
});

export const effectCommands = [effectAdd, effectSet, effectRemove];
