/**
 * A layer's sound switches. The level (dB, keyframeable for fades) is the property `audio.level`, set with
 * property.set / property.setKeyframe; mute is a switch of its own, as in After Effects' timeline, one undo step;
 * so is the choice of a file's audio stream, for files with several.
 */
import { z } from 'zod';
import { defineCommand, IDEMPOTENT_EDIT } from '../catalog.js';
import { EngineError } from '../errors.js';
import { MAX_AUDIO_STREAM, staticProp } from '../model.js';
import { checkAudioStream, checkHasSound, setStream } from '../audio-streams.js';
import { hasSourceTime } from '../time-map.js';
import { draftLayer, findFootage } from '../resolve.js';
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
    checkHasSound(ctx.doc, layer);
    if ((layer.audio?.muted ?? false) !== p.muted)
      ctx.update((d) => {
        const draft = draftLayer(d, comp.id, layer.id);
        if (draft.audio) draft.audio.muted = p.muted;
        else draft.audio = { level: staticProp(0), muted: p.muted };
      });
    return { id: layer.id, muted: p.muted };
  },
});

export const layerSetAudioStream = defineCommand({
  id: 'layer.setAudioStream',
  title: 'Choose Layer Audio Stream',
  category: 'Layer',
  description:
    'Chooses which audio stream of its file a footage layer plays, for files with several (a second language, a commentary track): 0 is the first, what a layer plays unless told. The footage item lists its streams (media.audioStreams, with codec, channels, language and title). One undo step.',
  example: { layer: 'Interview', stream: 1 },
  params: z.strictObject({
    comp: CompRef.optional(),
    layer: LayerRef,
    stream: z.number().int().min(0).max(MAX_AUDIO_STREAM).describe('Audio stream index, 0 = the first'),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    if (layer.source.kind !== 'footage')
      throw new EngineError(
        'bad_argument',
        `"${layer.name}" is a ${layer.source.kind} layer; only a footage layer plays a file's audio stream.`,
        'Choose the stream on the footage layer itself (inside the precomp, for a precomp layer).',
      );
    checkAudioStream(findFootage(ctx.doc, layer.source.footage), p.stream);
    if ((layer.audio?.stream ?? 0) !== p.stream)
      ctx.update((d) => setStream(draftLayer(d, comp.id, layer.id), p.stream));
    return { id: layer.id, stream: p.stream };
  },
});

export const layerAudioCommands = [layerSetAudioMuted, layerSetAudioStream];
