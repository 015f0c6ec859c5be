/**
 * A footage or precomp layer plays its source once, from its start time on (time-map.ts, footageTime): outside
 * that span, unless it loops or is frozen, it shows and plays nothing. After Effects does not let a footage
 * layer's out point pass its source's end; layer.setTiming does (a layer may be looped or retimed later), so it
 * says so, as a speed change (layer.setTimeMap) and a relink to a shorter file (footage.relink) already do.
 */
import type { Composition, Layer, Project } from '../model.js';
import { audioStreamsOf, shownFootage, sourceSeconds } from '../shown-footage.js';
import { DEFAULT_TIME_MAP, hasSourceTime } from '../time-map.js';

type Warn = (message: string) => void;

/** Seconds of source a layer can play: a video's sound may run on past its picture, and is heard there. */
function playable(doc: Pick<Project, 'items'>, layer: Pick<Layer, 'source'>): number | null {
  const item = shownFootage(doc, layer);
  const sounds = item ? audioStreamsOf(item).map((a) => a.duration + (a.offset ?? 0)) : [];
  const length = Math.max(sourceSeconds(doc, layer) ?? 0, ...sounds);
  return length > 0 ? length : null;
}

/** Warns when the part of `layer` within `comp` reaches outside the span its source plays in. */
export function warnBeyondSource(
  doc: Pick<Project, 'items'>,
  comp: Pick<Composition, 'duration' | 'frameRate'>,
  layer: Pick<Layer, 'name' | 'source' | 'startTime' | 'inPoint' | 'outPoint' | 'time'>,
  warn: Warn,
): void {
  const map = layer.time ?? DEFAULT_TIME_MAP;
  if (!hasSourceTime(layer) || map.loop || map.freezeAt !== null) return;
  const length = playable(doc, layer);
  if (length === null) return;
  const start = layer.startTime;
  const end = start + length / Math.abs(map.speed);
  // Only what the composition shows counts; a layer wholly outside it has its own warning (unit-hints.ts).
  const lo = Math.max(layer.inPoint, 0);
  const hi = Math.min(layer.outPoint, comp.duration);
  const half = 0.5 / comp.frameRate;
  if (hi <= lo) return;
  const s = (n: number) => +n.toFixed(3);
  const source = `its source (${s(length)} s${map.speed === 1 ? '' : ` at speed ${map.speed}`}) plays from ${s(start)} s to ${s(end)} s of the composition`;
  // A start time given alone slides the in and out points with it, so the fix names all three.
  const fits = `{startTime: ${s(lo)}, inPoint: ${s(lo)}, outPoint: ${s(Math.min(hi, lo + end - start))}}`;
  if (lo >= end - half || hi <= start + half)
    warn(
      `Layer "${layer.name}" now lasts from ${s(lo)} s to ${s(hi)} s, but ${source}: it shows and plays nothing at all. ` +
        `Start the source at the in point (layer.setTiming ${fits}), or loop it (layer.setTimeMap {loop: true}).`,
    );
  else {
    if (hi > end + half)
      warn(
        `Layer "${layer.name}" lasts to ${s(hi)} s, but ${source}: it shows and plays nothing for its last ${s(hi - end)} s. ` +
          `Set the out point where the source ends (layer.setTiming {outPoint: ${s(end)}}), or loop it (layer.setTimeMap {loop: true}).`,
      );
    if (lo < start - half)
      warn(
        `Layer "${layer.name}" starts at ${s(lo)} s, but ${source}: it shows and plays nothing for its first ${s(start - lo)} s. ` +
          `Set the in point where the source starts (layer.setTiming {inPoint: ${s(start)}}).`,
      );
  }
}
