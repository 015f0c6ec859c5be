/** Read-only questions about the document the page asks often: which composition, which layer, which frame. */
import type { Composition, Layer, Project } from '../../../engine/model.js';
import { timecode as timecodeAt } from '../../../engine/timecode.js';

export function activeComp(doc: Project | null): Composition | null {
  if (!doc?.activeComp) return null;
  const item = doc.items.find((i) => i.id === doc.activeComp);
  return item?.type === 'composition' ? item : null;
}

export function compositions(doc: Project | null): Composition[] {
  return (doc?.items ?? []).filter((i): i is Composition => i.type === 'composition');
}

export function layerById(comp: Composition | null, id: string | null): Layer | null {
  if (!comp || id === null) return null;
  return comp.layers.find((l) => l.id === id) ?? null;
}

/** A layer by id, or by name when the name is unique in the composition (as the commands accept). */
export function findLayer(comp: Composition | null, ref: string): Layer | null {
  if (!comp) return null;
  const byId = comp.layers.find((l) => l.id === ref);
  if (byId) return byId;
  const named = comp.layers.filter((l) => l.name === ref);
  return named.length === 1 ? named[0]! : null;
}

/**
 * Number of frames in the composition (the last is count - 1): the rule of the engine's frameCount
 * (src/engine/inspect.ts), which the page cannot import without the engine's Node-only modules.
 */
export function frameCount(comp: Pick<Composition, 'duration' | 'frameRate'>): number {
  return Math.max(1, Math.round(comp.duration * comp.frameRate));
}

export function clampFrame(comp: Composition, frame: number): number {
  return Math.min(frameCount(comp) - 1, Math.max(0, Math.round(frame)));
}

export const frameToTime = (comp: Composition, frame: number) => frame / comp.frameRate;
export const timeToFrame = (comp: Composition, time: number) => Math.round(time * comp.frameRate);

/** Layer time at a comp frame: keyframe times are in layer time (comp time minus the layer's start). */
export const layerTimeAt = (comp: Composition, layer: Layer, frame: number) =>
  frameToTime(comp, frame) - layer.startTime;

/** HH:MM:SS:FF, as After Effects shows comp time. */
export function timecode(comp: Composition, frame: number): string {
  return timecodeAt(comp.frameRate, frame);
}

/** The footage items a composition shows, through its precomps too (each composition looked at once). */
export function footageShown(doc: Project | null, compId: string): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const comp = doc?.items.find((i) => i.id === id);
    if (comp?.type !== 'composition') return;
    for (const layer of comp.layers) {
      if (layer.source.kind === 'footage') found.add(layer.source.footage);
      else if (layer.source.kind === 'precomp') visit(layer.source.comp);
    }
  };
  visit(compId);
  return found;
}
