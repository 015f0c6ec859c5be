/**
 * What a layer bar shows of a retime (layer.setTimeMap): a small mark for speed, reverse, loop and freeze, and the
 * parts of the bar where the source has run out (before it starts, after it ends), drawn hatched: a 10 s clip at
 * speed 4 looked the same as at speed 1, though it shows nothing after 2.5 s.
 */
import type { Layer, Project } from '../../../engine/model.js';
import { sourceSeconds } from '../../../engine/shown-footage.js';
import { DEFAULT_TIME_MAP, hasSourceTime } from '../../../engine/time-map.js';

export interface Retime {
  /** The bar's mark ("4×", "◀ 2×", "⟳", "❚❚"), or null for a layer shown at normal speed. */
  mark: string | null;
  /** The mark in words (its tooltip and part of the bar's accessible description). */
  words: string | null;
  /** Comp-time spans within the layer's in and out points that show nothing of the source. */
  empty: Array<[number, number]>;
}

const num = (n: number) => `${+n.toFixed(3)}`;

export function retimeOf(doc: Project | null, layer: Layer): Retime {
  const map = layer.time ?? DEFAULT_TIME_MAP;
  const length = doc && hasSourceTime(layer) ? sourceSeconds(doc, layer) : null;
  const marks: string[] = [];
  const words: string[] = [];
  if (map.freezeAt !== null) {
    marks.push('❚❚');
    words.push(`frozen at ${num(map.freezeAt)} s of the source`);
  } else {
    const speed = Math.abs(map.speed);
    if (map.speed < 0) {
      marks.push(speed === 1 ? '◀' : `◀ ${num(speed)}×`);
      words.push(`reversed${speed === 1 ? '' : ` at ${num(speed)}× speed`}`);
    } else if (speed !== 1) {
      marks.push(`${num(speed)}×`);
      words.push(`${num(speed)}× speed`);
    }
    if (map.loop) {
      marks.push('⟳');
      words.push('looping');
    }
  }
  const empty: Array<[number, number]> = [];
  if (length !== null && !map.loop && map.freezeAt === null) {
    const ends = layer.startTime + length / Math.abs(map.speed);
    if (layer.inPoint < layer.startTime)
      empty.push([layer.inPoint, Math.min(layer.startTime, layer.outPoint)]);
    if (layer.outPoint > ends) {
      empty.push([Math.max(ends, layer.inPoint), layer.outPoint]);
      words.push(`the source ends at ${num(ends)} s`);
    }
  }
  return {
    mark: marks.length ? marks.join(' ') : null,
    words: words.length ? words.join(', ') : null,
    empty,
  };
}
