/**
 * Pointing a footage item at a file again (After Effects' Replace Footage and Reload Footage): the file is
 * probed as file.import probes it, and the item keeps its id and name, so every layer showing it, with its
 * keyframes, timing and effects, shows the new file. The remedy for footage that moved, or changed on disk.
 */
import { z } from 'zod';
import { basename } from 'node:path';
import type { Composition, FootageItem, FootageMedia, Layer, Project } from '../model.js';
import { isSequencePattern, patternOfFile } from '../image-sequence.js';
import { defineCommand, DESTRUCTIVE_EDIT, EDIT } from '../catalog.js';
import { EngineError } from '../errors.js';
import { findFootage } from '../resolve.js';
import { followNewPicture } from '../footage-anchor.js';
import { DEFAULT_TIME_MAP } from '../time-map.js';
import { DEFAULT_SEQUENCE_RATE, importMedia, isStillName } from './media-import.js';
import { AbsPath } from './params.js';

export const footageRelink = defineCommand({
  id: 'footage.relink',
  title: 'Relink Footage',
  category: 'File',
  description:
    'Points a footage item at a file (its new place, or the same path to read a file that changed on disk again): the file is probed as file.import does, and the item keeps its id and name, so every layer showing it shows the new file with its keyframes, timing and effects. An image sequence relinked to a numbered image stays a sequence, read from that file on (sequence: false makes it that one still; a video or sound replaces it, with a warning). A file of another size keeps a centred anchor point centred (an anchor set by hand stays); the result warns of that, of a freeze past the new end, of a shorter file that ends before a layer showing it does (one that neither loops nor freezes), of a file with sound only for a picture and of a file without sound for an item that had some. One undo step.',
  example: { footage: 'Interview', path: '/media/interview-v2.mp4' },
  params: z.strictObject({
    footage: z.string().min(1).describe('Footage item id or unique name'),
    path: AbsPath,
    sequence: z
      .boolean()
      .optional()
      .describe(
        'Read the run of numbered files that starts at "path" as an image sequence (default: true for an image sequence relinked to a numbered image, so it stays a sequence; false makes the item that one still)',
      ),
    frameRate: z
      .number()
      .positive()
      .max(240)
      .optional()
      .describe(
        `Image sequences: frames per second (default: the item's own, else ${DEFAULT_SEQUENCE_RATE})`,
      ),
  }),
  pathParams: { path: 'read' },
  annotations: EDIT,
  mutates: true,
  async run(ctx, p) {
    const item = findFootage(ctx.doc, p.footage);
    const ownRate = item.media?.kind === 'sequence' ? (item.media.frameRate ?? undefined) : undefined;
    const found = await importMedia(ctx, p.path, {
      sequence: p.sequence ?? staysSequence(item, p.path),
      frameRate: p.frameRate ?? ownRate,
    });
    const frames = item.media?.sequence ? item.media.sequence.last - item.media.sequence.first + 1 : 0;
    if (frames && found.media?.kind !== 'sequence')
      ctx.warn(
        `"${item.name}" was an image sequence of ${frames} frames; it is now one file, ${basename(found.path)} (${found.media?.kind ?? 'still'}).${p.sequence === false && staysSequence(item, p.path) ? ' Relink it without sequence: false to read the run of numbered files that starts there.' : ''}`,
      );
    const recentred: string[] = [];
    const refitted: string[] = [];
    ctx.update((d) => {
      const draft = d.items.find((i) => i.id === item.id);
      if (draft?.type !== 'footage') return;
      draft.path = found.path;
      draft.width = found.width;
      draft.height = found.height;
      draft.format = found.format;
      if (found.media) draft.media = found.media;
      else delete draft.media;
      // Sound has no picture to centre on (its size is a placeholder), and a picture that replaces sound moved
      // nothing anyone saw: only a picture for a picture is told of.
      if (found.media?.kind === 'audio') return;
      for (const [comp, layer] of showingPlaces(d, item.id)) {
        const follows = followNewPicture(layer, [comp.width, comp.height], item, found);
        if (follows.recentred && item.media?.kind !== 'audio') recentred.push(layer.name);
        if (follows.refitted) refitted.push(`"${layer.name}" (${layer.fit})`);
      }
    });
    if (recentred.length)
      ctx.warn(
        `The new file is ${found.width}x${found.height} (was ${item.width}x${item.height}): the anchor point of ${quoted(recentred)} moved to its centre.`,
      );
    if (refitted.length)
      ctx.warn(
        `Fitted to the composition again for the new size, by the mode layer.fit gave each: ${refitted.join(', ')}.`,
      );
    warnFits(ctx, item.id, item.media ?? null, found.media ?? null);
    return {
      id: item.id,
      path: found.path,
      width: found.width,
      height: found.height,
      format: found.format,
      media: found.media,
    };
  },
});

/**
 * Whether a relink without `sequence` reads `path` as an image sequence: when the item is one and `path` is a
 * numbered image (or a pattern). Relinking a sequence to its first frame, as its errors advise, must not quietly
 * make it a still of that frame, and After Effects' Replace Footage keeps a sequence a sequence. A video, a sound
 * or an image without a number replaces it as the file it is, and the result warns.
 */
function staysSequence(item: FootageItem, path: string): boolean {
  return (
    item.media?.kind === 'sequence' &&
    isStillName(path) &&
    (isSequencePattern(path) || patternOfFile(path) !== null)
  );
}

/** Every layer, in every composition, whose source is footage item `id`. */
function showingLayers(doc: Project, id: string): Layer[] {
  return showingPlaces(doc, id).map(([, layer]) => layer);
}

/** The layers showing footage `id`, each with its composition. */
function showingPlaces(doc: Project, id: string): [Composition, Layer][] {
  return doc.items.flatMap((i) =>
    i.type === 'composition'
      ? i.layers
          .filter((l) => l.source.kind === 'footage' && l.source.footage === id)
          .map((l): [Composition, Layer] => [i, l])
      : [],
  );
}

const quoted = (names: string[]): string => names.map((n) => `"${n}"`).join(', ');

/**
 * The layers as a person can find them: by name, and where another of them has the same name (a clip used in
 * two compositions is two layers named after it) with its number and composition, so a warning never reads
 * `"clip", "clip" now play silence`.
 */
function layerNames(doc: Project, layers: readonly Layer[]): string[] {
  const count = new Map<string, number>();
  for (const l of layers) count.set(l.name, (count.get(l.name) ?? 0) + 1);
  return layers.map((l) => {
    if (count.get(l.name)! < 2) return `"${l.name}"`;
    for (const c of doc.items) {
      const index = c.type === 'composition' ? c.layers.findIndex((x) => x.id === l.id) : -1;
      if (c.type === 'composition' && index >= 0) return `"${l.name}" (layer ${index + 1} of "${c.name}")`;
    }
    return `"${l.name}"`;
  });
}

/**
 * Warns of what the layers showing the item ask of it that the new file cannot give: a freeze past its end
 * (the last frame is held), a picture when it has only sound, sound when it has none. The layers are left as they were: what
 * to do about it is the user's choice, and the warning says how.
 */
function warnFits(
  ctx: { doc: Project; warn(message: string): void },
  id: string,
  was: FootageMedia | null,
  media: FootageMedia | null,
): void {
  const layers = showingLayers(ctx.doc, id);
  const duration = media?.duration ?? null;
  const frozen = layers.filter((l) => duration !== null && (l.time?.freezeAt ?? -1) >= duration);
  if (frozen.length)
    ctx.warn(
      `${layerNames(ctx.doc, frozen).join(', ')} freeze${frozen.length > 1 ? '' : 's'} at a time past the end of the new file (${duration} s long): the last frame is shown. Set another with layer.setTimeMap {freezeAt}.`,
    );
  // A shorter file leaves the end of a layer that neither loops nor freezes with nothing to show or play.
  if (duration !== null && was?.duration != null && duration < was.duration) {
    const names = layerNames(ctx.doc, layers);
    const ends = layers.flatMap((l, i) => {
      const map = l.time ?? DEFAULT_TIME_MAP;
      const end = l.startTime + duration / Math.abs(map.speed);
      return !map.loop && map.freezeAt === null && l.outPoint > end + 1e-6
        ? [`${names[i]} at ${+end.toFixed(3)} s`]
        : [];
    });
    if (ends.length)
      ctx.warn(
        `The new file is ${+duration.toFixed(3)} s long (was ${+was.duration.toFixed(3)} s): it ends before the layer${ends.length > 1 ? 's' : ''} showing it do${ends.length > 1 ? '' : 'es'}, so nothing ${media?.kind === 'audio' ? 'plays' : 'shows'} after ${ends.join(', ')}. Move the out point (layer.setTiming {outPoint}), or loop it (layer.setTimeMap {loop: true}).`,
      );
  }
  if (media?.kind === 'audio' && was?.kind !== 'audio' && layers.length) {
    ctx.warn(
      `The new file has sound only: ${layerNames(ctx.doc, layers).join(', ')} show${layers.length > 1 ? '' : 's'} no picture.`,
    );
    // A matte with no picture hides the layer it mattes in every frame (layer.setTrackMatte refuses such a matte).
    const ids = new Set(layers.map((l) => l.id));
    const matted = ctx.doc.items.flatMap((c) =>
      c.type === 'composition' ? c.layers.filter((l) => l.trackMatte && ids.has(l.trackMatte.layer)) : [],
    );
    if (matted.length)
      ctx.warn(
        `${quoted(matted.map((l) => l.name))} ${matted.length > 1 ? 'are' : 'is'} matted by a layer that now has no picture: ${matted.length > 1 ? 'they are' : 'it is'} hidden in every frame. Remove the matte (layer.setTrackMatte {matte: null}) or relink to a picture.`,
      );
  }
  if (was?.audio && !media?.audio && layers.length)
    ctx.warn(
      `The new file has no sound: ${layerNames(ctx.doc, layers).join(', ')} now play${layers.length > 1 ? '' : 's'} silence.`,
    );
  // A sound file's layers drew nothing: relinked to a picture, they appear in every frame they last.
  if (was?.kind === 'audio' && media && media.kind !== 'audio' && layers.length)
    ctx.warn(
      `The new file has a picture (${media.kind}): ${layerNames(ctx.doc, layers).join(', ')}, which played sound only, now show${layers.length > 1 ? '' : 's'} it in the composition. Hide ${layers.length > 1 ? 'them' : 'it'} (layer.setEnabled {enabled: false}) to keep only the sound.`,
    );
  // A layer playing a stream the new file does not have fails every render that hears it: said now, not then.
  // (A file with no sound at all is silence for every stream.)
  const streams = media?.audioStreams?.length ?? (media?.audio ? 1 : 0);
  const lost = layers.filter((l) => streams > 0 && (l.audio?.stream ?? 0) >= streams);
  if (lost.length)
    ctx.warn(
      `The new file has ${streams} audio stream${streams === 1 ? '' : 's'}; ${lost.map((l) => `"${l.name}" plays its stream ${l.audio!.stream}`).join(', ')}: a render that hears ${lost.length > 1 ? 'them' : 'it'} fails. Choose a stream from 0 to ${streams - 1} with layer.setAudioStream.`,
    );
}

/**
 * Removing a footage item from the project (After Effects' Delete on a Project panel item). Refused while a layer
 * shows it, as comp.delete is while a precomp layer uses the composition: the layers would be left pointing at
 * nothing, and a project file with such a layer does not open. The file on disk is not touched.
 */
export const footageRemove = defineCommand({
  id: 'footage.remove',
  title: 'Remove Footage',
  category: 'File',
  description:
    'Removes a footage item from the project (its file on disk stays). Refused while a layer of any composition shows it: delete those layers first, or point the item at another file with footage.relink. One undo step.',
  example: { footage: 'Interview' },
  params: z.strictObject({
    footage: z.string().min(1).describe('Footage item id or unique name'),
  }),
  pathParams: {},
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const item = findFootage(ctx.doc, p.footage);
    const users = ctx.doc.items.flatMap((c) =>
      c.type === 'composition'
        ? c.layers
            .filter((l) => l.source.kind === 'footage' && l.source.footage === item.id)
            .map((l) => `${c.name}/${l.name}`)
        : [],
    );
    if (users.length)
      throw new EngineError(
        'bad_argument',
        `Footage "${item.name}" is shown by ${users.length > 1 ? 'layers' : 'a layer'}: ${users.join(', ')}.`,
        'Delete those layers first (layer.delete), or keep the item and point it at another file with footage.relink.',
      );
    ctx.remove(['items'], ctx.doc.items.indexOf(item));
    return { id: item.id, removed: true };
  },
});

export const footageCommands = [footageRelink, footageRemove];
