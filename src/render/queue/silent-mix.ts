/**
 * An output that should carry the composition's sound but has none to carry: a WAV, MP3 or M4A that is silence
 * from end to end, or a video whose composition has layers with sound that none of them is heard in (muted,
 * frozen, or outside their in and out points over the item's frames), so it is written without an audio stream.
 * Such an item ends `done` like any other, and an agent cannot listen to it: the result says so, as it says
 * when a mix clips (clip-meter.ts). A video of a composition with no sound at all is not warned of: a title or a
 * graphic has none by design. Layers that are heard but play silence (a silent recording, levels near -96 dB)
 * are found by the mix's meter instead (clip-meter.ts `heard`): `inaudibleMixWarning`.
 */
import { basename } from 'node:path';
import type { Project } from '../../engine/index.js';
import { layerHasSound } from '../../engine/shown-footage.js';
import type { AudioMix } from '../audio/clips.js';
import { SILENCE_DB, type ClipMeter } from '../audio/clip-meter.js';
import type { ItemPlan } from './plan.js';
import { keepsFloat } from './exporters/audio-formats.js';
import type { ExporterContext } from './exporters/types.js';

/** The warning for a done item whose sound is missing, or null; `mix` is what it was mixed from (null: none). */
export function silentMixWarning(doc: Project, plan: ItemPlan, mix: AudioMix | null): string | null {
  if (!plan.sound || (mix && mix.clips.length)) return null;
  const comp = doc.items.find((i) => i.id === plan.item.comp);
  if (comp?.type !== 'composition') return null;
  const withSound = comp.layers.filter((l) => layerHasSound(doc, l)).map((l) => `"${l.name}"`);
  if (plan.picture && !withSound.length) return null;
  const first = plan.frames[0]!;
  const last = plan.frames.at(-1)!;
  const from = +(first / plan.frameRate).toFixed(3);
  const to = +((last + 1) / plan.frameRate).toFixed(3);
  const span = `frames ${first} to ${last} (${from} s to ${to} s)`;
  const what = plan.picture
    ? `${plan.item.output} has no audio stream`
    : `${plan.item.output} is ${+(to - from).toFixed(3)} s of silence`;
  const why = withSound.length
    ? `its layers with sound (${withSound.slice(0, 5).join(', ')}${withSound.length > 5 ? ', ...' : ''}) are not heard in ${span}: muted, frozen (a held sound is silence) or outside their in and out points`
    : `it has no layer with sound`;
  return (
    `${what}: composition "${comp.name}" has nothing to hear, as ${why}. ` +
    // With no layer with sound at all, only adding one helps.
    (withSound.length
      ? 'Unmute a layer (layer.setAudioMuted {muted: false}), turn its freeze off (layer.setTimeMap {freezeAt: null}) ' +
        'or move it into the frames (layer.setTiming), or add a footage layer with sound (layer.addFootage).'
      : 'Add a footage layer with sound (layer.addFootage).') +
    (plan.picture
      ? ' A video meant to be silent says so with renderQueue.add {audio: false} (effectcraft-cli render --no-audio).'
      : '')
  );
}

/**
 * The warning for a done item whose sound layers were mixed and heard, but whose mix is silence from end to end
 * (the meter heard no 20 ms above SILENCE_DB): the files they play are silent there, or their levels are near
 * -96 dB. `mix` had clips and went through the meter; `seconds` is the output's length.
 */
function inaudibleMixWarning(output: string, mix: AudioMix, picture: boolean, floorDb: number): string {
  const files = [...new Set(mix.clips.map((c) => `"${basename(c.shown ?? c.path)}"`))];
  const seconds = +mix.duration.toFixed(3);
  const what = picture
    ? `${output} has ${seconds} s of sound that is silence`
    : `${output} is ${seconds} s of silence`;
  return (
    `${what} from end to end: the sound it mixes (${files.slice(0, 5).join(', ')}${files.length > 5 ? ', ...' : ''}) ` +
    `never rises above ${floorDb} dBFS in these frames, so the files are silent there or the layers' audio.level is ` +
    'near -96 dB. Check the files (play the footage, or relink it with footage.relink), raise audio.level ' +
    '(property.set, in dB) or move the layers to where their sound is (layer.setTiming)' +
    (picture
      ? ', or leave the sound out with renderQueue.add {audio: false} (effectcraft-cli render --no-audio).'
      : '.')
  );
}

/**
 * What a mix's meter found, as an exporter's warnings: clipping (for a float output, that it keeps it), and
 * silence from end to end when the mix had layers to hear (`metered`: it went through the meter) and the meter
 * heard nothing above SILENCE_DB. `picture`: the output has one beside its sound.
 */
export function meteredMixWarnings(
  meter: ClipMeter,
  ctx: Pick<ExporterContext, 'audio' | 'item'>,
  metered: boolean,
  picture: boolean,
): string[] {
  const { audio: mix, item } = ctx;
  const silent =
    mix && metered && !meter.heard ? inaudibleMixWarning(item.output, mix, picture, SILENCE_DB) : null;
  return [meter.warning(keepsFloat(item.encoding)), silent].filter((w) => w !== null);
}
