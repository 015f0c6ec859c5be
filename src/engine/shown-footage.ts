/** The footage item a layer shows: pure, zod-free (render workers use it too, through core.ts). */
import type { AudioStreamInfo, FootageItem, Layer, Project } from './model.js';

/** The footage item `layer` shows, or undefined (not a footage layer, or its item is gone). */
export function shownFootage(
  doc: Pick<Project, 'items'>,
  layer: Pick<Layer, 'source'>,
): FootageItem | undefined {
  if (layer.source.kind !== 'footage') return undefined;
  const id = layer.source.footage;
  return doc.items.find((i): i is FootageItem => i.type === 'footage' && i.id === id);
}

/** Whether `layer` plays a sound file: it has sound and no picture (a matte or a frame mix has nothing to use). */
export function playsSoundOnly(doc: Pick<Project, 'items'>, layer: Pick<Layer, 'source'>): boolean {
  return shownFootage(doc, layer)?.media?.kind === 'audio';
}

/** Whether a layer's source has frames to mix: a video or an image sequence (not a precomp, a still or sound). */
export function blendsFrames(doc: Pick<Project, 'items'>, layer: Pick<Layer, 'source'>): boolean {
  const kind = shownFootage(doc, layer)?.media?.kind;
  return kind === 'video' || kind === 'sequence';
}

/** The audio streams of `item` (the first alone for a file with one; none without sound). */
export function audioStreamsOf(item: Pick<FootageItem, 'media'>): AudioStreamInfo[] {
  const first = item.media?.audio;
  return item.media?.audioStreams ?? (first ? [first] : []);
}

/**
 * Whether `layer` has sound to level or mute: footage whose file has an audio stream, or a precomp holding such
 * a layer at any depth. A composition met twice is looked into once (the document forbids cycles; this only
 * keeps a page's view of a document mid-edit from looping).
 */
export function layerHasSound(
  doc: Pick<Project, 'items'>,
  layer: Pick<Layer, 'source'>,
  seen = new Set<string>(),
): boolean {
  const item = shownFootage(doc, layer);
  if (item) return audioStreamsOf(item).length > 0;
  if (layer.source.kind !== 'precomp') return false;
  const id = layer.source.comp;
  if (seen.has(id)) return false;
  seen.add(id);
  const comp = doc.items.find((i) => i.id === id);
  return comp?.type === 'composition' && comp.layers.some((l) => layerHasSound(doc, l, seen));
}

/**
 * Seconds of source a footage or precomp layer can show: a clip's, sequence's or sound's duration, a precomp's;
 * null for a still (or any other layer).
 */
export function sourceSeconds(doc: Pick<Project, 'items'>, layer: Pick<Layer, 'source'>): number | null {
  const item = shownFootage(doc, layer);
  if (item) return item.media?.duration || null;
  if (layer.source.kind !== 'precomp') return null;
  const id = layer.source.comp;
  const comp = doc.items.find((i) => i.id === id);
  return comp?.type === 'composition' ? comp.duration : null;
}
