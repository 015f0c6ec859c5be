/**
 * A layer's sound switch. The level (dB, keyframeable for fades) is the property `audio.level`, set with
 * property.set / property.setKeyframe; mute is a switch of its own, as in After Effects' timeline, one undo step.
 */
import { z } from 'zod';
import { defineCommand, IDEMPOTENT_EDIT } from '../catalog.js';
import { EngineError } from '../errors.js';
import { staticProp } from '../model.js';
import { hasSourceTime } from '../time-map.js';
import { draftLayer } from '../resolve.js';
import { needsComp } from './layer-add.js';
import { locate } from './layer-edit.js';
import { CompRef, LayerRef } from './params.js';

export const layerSetAudioMuted = defineCommand({
  id: 'layer.setAudioMuted',
  title: 'Mute/Unmute Layer Audio',
  category: 'Layer',
  description:
    'Mutes or unmutes the sound of a footage layer (or of everything inside a precomp layer). Its level stays as it is (property audio.level, in dB). A hidden layer (layer.setEnabled false) is still heard unless muted.',
  example: { layer: 'Interview', muted: true },
  params: z.strictObject({ comp: CompRef.optional(), layer: LayerRef, muted: z.boolean() }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    if (!hasSourceTime(layer))
      throw new EngineError(
        'bad_argument',
        `"${layer.name}" is a ${layer.source.kind} layer, which has no sound.`,
        'Mute a footage layer with sound, or a precomp layer.',
      );
    if ((layer.audio?.muted ?? false) !== p.muted)
      ctx.update((d) => {
        const draft = draftLayer(d, comp.id, layer.id);
        if (draft.audio) draft.audio.muted = p.muted;
        else draft.audio = { level: staticProp(0), muted: p.muted };
      });
    return { id: layer.id, muted: p.muted };
  },
});

export const layerAudioCommands = [layerSetAudioMuted];
