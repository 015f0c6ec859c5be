/**
 * The layer settings that are not keyframed properties: a footage or precomp layer's time mapping (speed,
 * reverse, loop, freeze frame, frame blending: layer.setTimeMap) and its sound's switches (mute:
 * layer.setAudioMuted; which audio stream: layer.setAudioStream). The Properties panel shows them under Time and
 * Audio, and the UI tools set them by the same paths (`Properties/Time/Speed`), so one list serves both, as
 * layerProperties does for the keyframed ones. The sound's level is a keyframed property (`audio.level`), listed
 * there.
 */
import type { Composition, Layer, Project } from '../../../engine/model.js';
import {
  audioStreamsOf,
  blendsFrames,
  layerHasSound,
  shownFootage,
  sourceSeconds,
} from '../../../engine/shown-footage.js';
import { DEFAULT_TIME_MAP, footageTime, hasSourceTime, type TimeMap } from '../../../engine/time-map.js';
import type { Step } from '../live/commands.js';
import { frameToTime } from './doc.js';

export type SwitchValue = boolean | number | string | null;

export interface SwitchRow {
  group: 'Time' | 'Audio';
  name: string;
  type: 'boolean' | 'number' | 'enum';
  value: SwitchValue;
  unit?: string;
  min?: number;
  max?: number;
  /** Value change per pixel of scrubbing, and decimals shown (number rows). */
  step?: number;
  precision?: number;
  /** An enum's choices, as the values it takes. */
  options?: string[];
  /** How a choice is shown (an audio stream: "1: ac3, 6 channels, eng"). */
  labels?: string[];
  /** The one command a change to `value` makes. */
  change(value: SwitchValue): Step;
}

export const switchPathOf = (row: Pick<SwitchRow, 'group' | 'name'>) => `Properties/${row.group}/${row.name}`;

/** How long one source frame lasts: a reversed clip starts at its last frame's own time. */
function frameLength(doc: Pick<Project, 'items'>, layer: Layer): number {
  const item = shownFootage(doc, layer);
  if (item) return item.media?.frameRate ? 1 / item.media.frameRate : 0;
  const id = layer.source.kind === 'precomp' ? layer.source.comp : null;
  const comp = doc.items.find((i) => i.id === id);
  return comp?.type === 'composition' ? 1 / comp.frameRate : 0;
}

export function layerSwitches(
  doc: Pick<Project, 'items'>,
  comp: Composition,
  layer: Layer,
  frame: number,
): SwitchRow[] {
  const rows: SwitchRow[] = [];
  const target = { comp: comp.id, layer: layer.id };
  const length = hasSourceTime(layer) ? sourceSeconds(doc, layer) : null;
  if (length !== null) {
    const map: TimeMap = layer.time ?? DEFAULT_TIME_MAP;
    const retime = (change: Partial<TimeMap>): Step => ({
      id: 'layer.setTimeMap',
      params: { ...target, ...change },
    });
    // The source moment under the playhead, which Freeze holds (as After Effects' Freeze Frame does); a playhead
    // before the layer's source starts holds its first moment, one after it ends its last.
    const here = () => {
      const at = frameToTime(comp, frame);
      const shown = footageTime(layer, at, length, frameLength(doc, layer));
      // Outside the source: forward, the first moment before it and the last after; reversed, the other way.
      const last = Math.max(0, length - frameLength(doc, layer));
      const t = shown ?? (at < layer.startTime === map.speed >= 0 ? 0 : last);
      return Number(t.toFixed(6));
    };
    rows.push(
      {
        group: 'Time',
        name: 'Speed',
        type: 'number',
        value: Math.abs(map.speed),
        unit: '×',
        min: 0.01,
        max: 100,
        step: 0.01,
        precision: 2,
        change: (v) => retime({ speed: Math.sign(map.speed) * Number(v) }),
      },
      {
        group: 'Time',
        name: 'Reverse',
        type: 'boolean',
        value: map.speed < 0,
        change: (v) => retime({ speed: (v ? -1 : 1) * Math.abs(map.speed) }),
      },
      {
        group: 'Time',
        name: 'Loop',
        type: 'boolean',
        value: map.loop,
        change: (v) => retime({ loop: Boolean(v) }),
      },
      {
        group: 'Time',
        name: 'Freeze',
        type: 'boolean',
        value: map.freezeAt !== null,
        change: (v) => retime({ freezeAt: v ? here() : null }),
      },
    );
    if (map.freezeAt !== null)
      rows.push({
        group: 'Time',
        name: 'Freeze At',
        type: 'number',
        value: map.freezeAt,
        unit: 's',
        min: 0,
        // The engine takes times short of the end (the last frame's own time is the latest shown).
        max: Math.max(0, length - Math.max(frameLength(doc, layer), 0.01)),
        step: 0.01,
        precision: 2,
        change: (v) => retime({ freezeAt: Number(v) }),
      });
    if (blendsFrames(doc, layer))
      rows.push({
        group: 'Time',
        name: 'Frame Blending',
        type: 'boolean',
        value: map.frameBlending ?? false,
        change: (v) => retime({ frameBlending: Boolean(v) }),
      });
  }
  if (layerHasSound(doc, layer)) {
    rows.push({
      group: 'Audio',
      name: 'Mute',
      type: 'boolean',
      value: layer.audio?.muted ?? false,
      change: (v) => ({ id: 'layer.setAudioMuted', params: { ...target, muted: Boolean(v) } }),
    });
    const item = shownFootage(doc, layer);
    const streams = item ? audioStreamsOf(item) : [];
    if (streams.length > 1)
      rows.push({
        group: 'Audio',
        name: 'Stream',
        type: 'enum',
        value: String(layer.audio?.stream ?? 0),
        options: streams.map((_, i) => String(i)),
        labels: streams.map((s, i) =>
          [`${i}: ${s.codec}`, `${s.channels} ch`, s.language, s.title].filter(Boolean).join(', '),
        ),
        change: (v) => ({ id: 'layer.setAudioStream', params: { ...target, stream: Number(v) } }),
      });
  }
  return rows;
}
