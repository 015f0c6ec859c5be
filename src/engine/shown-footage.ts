/** The footage item a layer shows: pure, zod-free (render workers use it too, through core.ts). */
import type { FootageItem, Layer, Project } from './model.js';

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
