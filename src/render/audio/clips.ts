/**
 * What a render item hears: the audible footage layers of its composition, precomps included, as pieces of
 * footage placed on the item's timeline. Pure (no ffmpeg): graph.ts turns the result into one filter graph.
 *
 * Timing comes from THE time mapping (src/engine/time-map.ts, footageTime), the function the picture uses, so
 * picture and sound cannot drift. A layer's footage time is linear in comp time between loop wraps, so each
 * stretch between wraps is one segment whose start is asked of footageTime and whose end follows from speed.
 * Speed != 1 plays the footage faster or slower like tape (pitch moves with it); reversed plays backwards;
 * a freeze frame is silence (a held sound has no meaning).
 */
import {
  EngineError,
  type Composition,
  type FootageItem,
  type Layer,
  type NumberProp,
  type Project,
} from '../../engine/index.js';
import { DEFAULT_TIME_MAP, footageTime, type TimeMap } from '../../engine/time-map.js';

/** One stretch of footage on the item's timeline. Times in seconds. */
export interface AudioSegment {
  /** Where it starts on the item's timeline (0: the item's first frame). */
  at: number;
  /** How long it lasts on the timeline. */
  length: number;
  /** The lowest footage time it plays; it covers [from, from + length * speed) of the footage. */
  from: number;
  /** |layer speed|: 2 plays twice as fast (an octave up), 0.5 half as fast (an octave down). */
  speed: number;
  /** Played from its end to its start. */
  reversed: boolean;
}

/** An animatable level (dB) of a layer, read at layer time = item time - `shift`. */
export interface LevelTrack {
  level: NumberProp;
  shift: number;
}

/** One audible footage layer. */
export interface AudioClip {
  /** The footage file (absolute), read by ffmpeg. */
  path: string;
  segments: AudioSegment[];
  /** Its level in dB is the sum of these: its own and those of the precomp layers it is inside. */
  levels: LevelTrack[];
}

/** The sound of one render item: `duration` seconds of its composition from comp time `start`. */
export interface AudioMix {
  start: number;
  duration: number;
  clips: AudioClip[];
}

/** The sound a footage item carries, as the probe recorded it (media.audio); null: none. */
export function footageSound(item: FootageItem): { duration: number } | null {
  return item.media?.audio ?? null;
}

/**
 * Segments past this in one item are refused: each is a branch of the filter graph (a one-second loop over an
 * hour is 3600). Far above a real edit's cuts and loops, far below what makes ffmpeg's graph slow to build.
 */
export const MAX_AUDIO_SEGMENTS = 2000;

const EPS = 1e-9;

interface Context {
  /** Top comp time minus this comp's time. */
  offset: number;
  /** The part of the top comp's timeline this comp is heard in. */
  lo: number;
  hi: number;
  levels: LevelTrack[];
  depth: number;
}

/** The audible clips of `compId` over comp time [start, start + duration). */
export function collectAudio(doc: Project, compId: string, start: number, duration: number): AudioMix {
  const byId = new Map(doc.items.map((i) => [i.id, i]));
  const audible = audibleComps(doc);
  const clips: AudioClip[] = [];
  let segments = 0;
  const visit = (comp: Composition, ctx: Context) => {
    // nesting.ts bounds the picture's depth; the same bound holds here (a hand-edited cycle ends too).
    if (ctx.depth > 32) return;
    for (const layer of comp.layers) {
      if (layer.audio?.muted) continue;
      const lo = Math.max(ctx.lo, ctx.offset + layer.inPoint, ctx.offset);
      const hi = Math.min(ctx.hi, ctx.offset + layer.outPoint, ctx.offset + comp.duration);
      if (hi - lo < EPS) continue;
      const levels = withLevel(ctx.levels, layer, ctx.offset - start);
      if (layer.source.kind === 'precomp') {
        const inner = byId.get(layer.source.comp);
        // Precomps multiply (ten layers of ten layers of ...): only those with sound inside are walked, and
        // those are bounded by MAX_AUDIO_SEGMENTS.
        if (inner?.type !== 'composition' || !audible.has(inner.id)) continue;
        const map = layer.time ?? DEFAULT_TIME_MAP;
        // A frozen precomp holds one moment: silence, as a frozen footage layer.
        if (map.freezeAt !== null) continue;
        const before = clips.length;
        visit(inner, { offset: ctx.offset + layer.startTime, lo, hi, levels, depth: ctx.depth + 1 });
        if (clips.length > before && (map.speed !== 1 || map.loop)) throw retimedPrecomp(layer);
      } else if (layer.source.kind === 'footage') {
        const item = byId.get(layer.source.footage);
        const sound = item?.type === 'footage' ? footageSound(item) : null;
        if (!item || item.type !== 'footage' || !sound || !(sound.duration > 0)) continue;
        const found = layerSegments(layer, ctx.offset, lo, hi, sound.duration, start);
        segments += found.length;
        if (segments > MAX_AUDIO_SEGMENTS) throw tooManySegments(doc, compId);
        if (found.length) clips.push({ path: item.path, segments: found, levels });
      }
    }
  };
  const top = byId.get(compId);
  if (top?.type === 'composition')
    visit(top, { offset: 0, lo: start, hi: start + duration, levels: [], depth: 0 });
  return { start, duration, clips };
}

/** The compositions that hold, at any depth, an unmuted footage layer whose footage has sound. */
function audibleComps(doc: Project): Set<string> {
  const comps = new Map(doc.items.flatMap((i) => (i.type === 'composition' ? [[i.id, i] as const] : [])));
  const sounding = new Set(doc.items.flatMap((i) => (i.type === 'footage' && footageSound(i) ? [i.id] : [])));
  const memo = new Map<string, boolean>();
  const hears = (id: string): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    // A cycle (hand-edited files only) is silent while it is being decided.
    memo.set(id, false);
    const heard = !!comps
      .get(id)
      ?.layers.some(
        (l) =>
          !l.audio?.muted &&
          ((l.source.kind === 'footage' && sounding.has(l.source.footage)) ||
            (l.source.kind === 'precomp' && hears(l.source.comp))),
      );
    memo.set(id, heard);
    return heard;
  };
  return new Set([...comps.keys()].filter(hears));
}

/** The level tracks with `layer`'s own added (a constant 0 dB adds nothing and is left out). */
function withLevel(levels: LevelTrack[], layer: Layer, offsetFromItem: number): LevelTrack[] {
  const level = layer.audio?.level;
  if (!level || (level.keyframes.length === 0 && level.value === 0)) return levels;
  // Layer time = comp time - startTime = (item time + start) - offset - startTime.
  return [...levels, { level, shift: offsetFromItem + layer.startTime }];
}

/**
 * The segments of a footage layer heard over top comp time [lo, hi): one per play-through of the footage
 * (several when it loops). `offset`: top comp time minus the layer's comp time.
 */
function layerSegments(
  layer: Layer,
  offset: number,
  lo: number,
  hi: number,
  duration: number,
  itemStart: number,
): AudioSegment[] {
  const map: TimeMap = layer.time ?? DEFAULT_TIME_MAP;
  if (map.freezeAt !== null || map.speed === 0) return [];
  const speed = Math.abs(map.speed);
  // One play-through of the footage lasts `period` seconds of layer time; layer time 0 starts the first.
  const period = duration / speed;
  const base = offset + layer.startTime;
  const [from, to] = [lo - base, hi - base];
  const first = map.loop ? Math.floor(from / period) : 0;
  const last = map.loop ? Math.ceil(to / period) - 1 : 0;
  const out: AudioSegment[] = [];
  for (let k = first; k <= last; k++) {
    const a = Math.max(from, k * period);
    const b = Math.min(to, (k + 1) * period);
    if (b - a < EPS) continue;
    // The footage time, from the one mapping the picture uses, asked mid-segment: at a loop's wrap, float
    // rounding of the modulo can land on the footage's very end, where the mapping answers "nothing".
    const mid = (a + b) / 2;
    const at = footageTime({ startTime: layer.startTime, time: map }, base + mid - offset, duration);
    if (at === null) continue;
    const span = (b - a) * speed;
    const reversed = map.speed < 0;
    // Forward, the segment starts (mid - a) * speed before `at`; reversed, it ends that much before.
    const start = reversed ? at + (mid - a) * speed - span : at - (mid - a) * speed;
    out.push({ at: base + a - itemStart, length: b - a, from: Math.max(0, start), speed, reversed });
  }
  return out;
}

function retimedPrecomp(layer: Layer): EngineError {
  return new EngineError(
    'bad_argument',
    `Precomp layer "${layer.name}" changes its composition's speed or loops it, and that composition has sound: sound through a retimed precomp is not mixed yet.`,
    'Retime the footage layers inside the precomp instead, mute the precomp layer (layer.setAudioMuted), or render with audio: false (--no-audio).',
  );
}

function tooManySegments(doc: Project, compId: string): EngineError {
  const comp = doc.items.find((i) => i.id === compId);
  return new EngineError(
    'bad_argument',
    `The sound of "${comp?.name ?? compId}" needs more than ${MAX_AUDIO_SEGMENTS} pieces of footage (short looping sounds over a long time, typically).`,
    'Render a shorter frame range, loop a longer sound, or render the looping sound to a WAV first and use that as footage.',
  );
}
