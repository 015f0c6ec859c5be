/**
 * The audio streams of a footage file, as a layer chooses among them (`audio.stream`, layer.setAudioStream and
 * layer.addFootage's audioStream): the probe records every stream when a file has several, the first alone as
 * `media.audio` otherwise.
 */
import { EngineError } from './errors.js';
import { audioStreamsOf, playsSoundOnly, shownFootage } from './shown-footage.js';
import { staticProp, type AudioStreamInfo, type FootageItem, type Layer, type Project } from './model.js';

/** A stream as an error lists it: `1 (ac3, 6 channels, eng, "Commentary")`. */
function describeStream(index: number, s: AudioStreamInfo): string {
  const words = [
    s.codec,
    `${s.channels} channel${s.channels === 1 ? '' : 's'}`,
    s.language,
    s.title && `"${s.title}"`,
  ];
  return `${index} (${words.filter(Boolean).join(', ')})`;
}

/** Throws bad_argument naming the streams there are when `item` has no audio stream `stream`. */
export function checkAudioStream(item: FootageItem, stream: number): void {
  const streams = audioStreamsOf(item);
  if (stream < streams.length) return;
  if (!streams.length)
    throw new EngineError(
      'bad_argument',
      `Footage "${item.name}" has no sound.`,
      "Choose a footage layer whose file has an audio stream (project.inspect lists each item's audio).",
    );
  throw new EngineError(
    'bad_argument',
    `Footage "${item.name}" has no audio stream ${stream}; its ${streams.length === 1 ? 'one stream is' : `${streams.length} streams are`} ${streams.map((s, i) => `stream ${describeStream(i, s)}`).join(', ')}.`,
    `Pass a stream from 0 to ${streams.length - 1}.`,
  );
}

/** Sets a (draft) layer's audio stream; the first is recorded as no field at all, as layers have always been. */
export function setStream(layer: Layer, stream: number): void {
  if (!layer.audio) layer.audio = { level: staticProp(0), muted: false };
  if (stream === 0) delete layer.audio.stream;
  else layer.audio.stream = stream;
}

/**
 * Throws bad_argument when `layer` shows footage without sound (a still, a sequence, a silent video): muting it
 * or setting its level would do nothing. Precomp layers pass (their sound is what they hold).
 */
export function checkHasSound(doc: Project, layer: Layer): void {
  const item = shownFootage(doc, layer);
  if (!item || audioStreamsOf(item).length) return;
  throw new EngineError(
    'bad_argument',
    `Layer "${layer.name}" shows footage "${item.name}", ${item.media?.kind === 'video' ? 'a video without a sound stream' : `a ${item.media?.kind ?? 'still'} with no sound`}: there is nothing to mute or level.`,
    'Do it on a layer whose footage has sound (media.audio in doc_inspect), or on a precomp layer.',
  );
}

/** What a sound-only layer's refusals tell the caller to do instead, unless an edit has better advice. */
const SOUND_REMEDY =
  'Change its sound with audio.level or layer.setAudioMuted; do this on a layer with a picture instead.';

/**
 * Throws bad_argument when `layer` plays a sound file: it has no picture, so an edit of its picture (a
 * transform, an effect, a blend mode, a parent, a matte, frame blending) would be stored and change nothing,
 * and the caller would be told it worked. `what` ends "it has no picture ..." (e.g. "to blend").
 */
export function refuseSoundOnly(
  doc: Project,
  layer: Layer,
  what: string,
  remedy: string = SOUND_REMEDY,
): void {
  if (!playsSoundOnly(doc, layer)) return;
  throw new EngineError(
    'bad_argument',
    `Layer "${layer.name}" plays sound only: it has no picture ${what}.`,
    remedy,
  );
}

/** refuseSoundOnly for a transform property (the studio shows such a layer no Transform); fades are audio.level's. */
export function checkHasPicture(doc: Project, layer: Layer, property: string): void {
  if (!property.startsWith('transform.')) return;
  refuseSoundOnly(
    doc,
    layer,
    `for ${property} to change`,
    property === 'transform.opacity'
      ? 'Fade its sound with audio.level keyframes (decibels), or mute it with layer.setAudioMuted.'
      : 'Change its sound with audio.level or layer.setAudioMuted; place a picture layer instead.',
  );
}
