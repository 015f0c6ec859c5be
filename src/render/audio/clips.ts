/**
 * What a render item hears: the audible footage layers of its composition, precomps included, as pieces of
 * footage placed on the item's timeline. Pure (no ffmpeg): graph.ts turns the result into one filter graph.
 *
 * Timing comes from THE time mapping (src/engine/time-map.ts, footageTime), the function the picture uses, so
 * picture and sound cannot drift. A layer's footage time is linear in comp time between loop wraps, so each
 * stretch between wraps is one segment whose start is asked of footageTime and whose end follows from speed.
 * Speed != 1 plays the footage faster or slower like tape (pitch moves with it); reversed plays backwards;
 * a freeze frame is silence (a held sound has no meaning). Precomps map their composition's time the same way
 * (retimed ones too: speed, reverse and loop): the walk carries, for each composition, the windows of the top
 * timeline over which its time is linear, and every map composes into them.
 */
import {
  EngineError,
  type Composition,
  type FootageItem,
  type Layer,
  type NumberProp,
  type Project,
} from '../../engine/index.js';
import { audioStreamsOf } from '../../engine/shown-footage.js';
import { DEFAULT_TIME_MAP, footageTime, type TimeMap } from '../../engine/time-map.js';
import { branchWidth, loopRuns, RUN_GROUP } from './loop-runs.js';

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

/** An animatable level (dB) of a layer, read at layer time = item time - `shift` (or by `windows`). */
export interface LevelTrack {
  level: NumberProp;
  shift: number;
  /**
   * Inside a retimed precomp the layer's time is not item time shifted: over each window [lo, hi) of the item's
   * timeline it is l0 + k * (t - lo). Absent: `shift` says it.
   */
  windows?: LevelWindow[];
}

export interface LevelWindow {
  lo: number;
  hi: number;
  l0: number;
  k: number;
}

/** One audible footage layer. */
export interface AudioClip {
  /** The footage file (absolute), read by ffmpeg. */
  path: string;
  /** The footage file as the document names it, when `path` is the descriptor it was opened as (errors). */
  shown?: string;
  /** Which of the file's audio streams (0: the first). */
  stream: number;
  /** Seconds of footage time before the sound's first sample (negative: the sound starts before the picture). */
  offset: number;
  /** The sound's channels as stored: mono is copied to both sides of the mix. */
  channels: number;
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

/**
 * The sound a footage item carries in its audio stream `stream` (0: the first), as the probe recorded it
 * (media.audio, media.audioStreams); null: none at all. `duration` is in footage time: it ends `offset` later
 * than the stream's own length. A stream the file does not have (relinked to a file with fewer) is an error
 * naming the remedy, not silence.
 */
export function footageSound(
  item: FootageItem,
  stream = 0,
): { duration: number; offset: number; channels: number; stream: number } | null {
  const streams = audioStreamsOf(item);
  if (!streams.length) return null;
  const audio = streams[stream];
  if (!audio)
    throw new EngineError(
      'unsupported_format',
      `Footage "${item.name}" has ${streams.length} audio stream${streams.length === 1 ? '' : 's'}; a layer plays its stream ${stream}, which it does not have.`,
      // The file may be a template input's value (a --data row's): then the template's stream is the one to change,
      // or the row's file.
      `Choose one from 0 to ${streams.length - 1} with layer.setAudioStream, or give the layer a file with a stream ${stream} (footage.relink; for a template input, the value given).`,
    );
  const offset = audio.offset ?? 0;
  return { duration: Math.max(0, audio.duration + offset), offset, channels: audio.channels, stream };
}

/**
 * Branches of the filter graph past this in one item are refused: each segment is one, and a loop's repeats
 * one per group of RUN_GROUP (loop-runs.ts; one in all when its period is whole samples). Far above a real edit's
 * cuts and loops, far below what makes ffmpeg's graph slow to build.
 */
export const MAX_AUDIO_SEGMENTS = 2000;

/** The graph's branches for one clip's segments (graph.ts makes the same ones). */
function branchCount(segments: readonly AudioSegment[]): number {
  // More repeats than the groups could ever hold: refused without sorting millions of them first.
  if (segments.length > MAX_AUDIO_SEGMENTS * RUN_GROUP) return segments.length;
  return branchWidth(loopRuns(segments));
}

const EPS = 1e-9;

/**
 * A stretch [lo, hi) of the top composition's timeline over which a composition's time is c0 + k * (T - lo):
 * k = 1 for plain precomps, the product of the speeds for retimed ones, negative when reversed.
 */
interface Window {
  lo: number;
  hi: number;
  c0: number;
  k: number;
}

interface Context {
  /** Where and how the walked composition is heard on the top timeline. */
  windows: Window[];
  levels: LevelTrack[];
  depth: number;
}

/** A piece of a layer's source time over comp time [at, at + length): footage or a nested composition. */
type Piece = AudioSegment;

/** The composition time at top time `t` in window `w`. */
const timeIn = (w: Window, t: number) => w.c0 + w.k * (t - w.lo);

/** The part of `w` where the composition's time is within [from, to). */
function restrict(w: Window, from: number, to: number): Window | null {
  const [a, b] = w.k > 0 ? [from, to] : [to, from];
  const lo = Math.max(w.lo, w.lo + (a - w.c0) / w.k);
  const hi = Math.min(w.hi, w.lo + (b - w.c0) / w.k);
  return hi - lo < EPS ? null : { lo, hi, c0: timeIn(w, lo), k: w.k };
}

/** The top-time span of `piece` (comp time [at, at + length)) inside window `w`. */
function spanOf(w: Window, piece: Piece): [number, number] {
  const ends = [piece.at, piece.at + piece.length].map((c) => w.lo + (c - w.c0) / w.k);
  return [Math.min(ends[0]!, ends[1]!), Math.max(ends[0]!, ends[1]!)];
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
      const [from, to] = [Math.max(0, layer.inPoint), Math.min(layer.outPoint, comp.duration)];
      const windows = ctx.windows.flatMap((w) => restrict(w, from, to) ?? []);
      if (!windows.length) continue;
      const levels = withLevel(ctx.levels, layer, ctx.windows, start);
      if (layer.source.kind === 'precomp') {
        const inner = byId.get(layer.source.comp);
        // Precomps multiply (ten layers of ten layers of ...): only those with sound inside are walked, and
        // those are bounded by MAX_AUDIO_SEGMENTS.
        if (inner?.type !== 'composition' || !audible.has(inner.id)) continue;
        // The nested composition's time follows the layer's time map (a frozen one is silence, as footage).
        const nested = windows.flatMap((w) =>
          sourcePieces(layer, w, inner.duration).map((piece) => nestedWindow(w, piece)),
        );
        if (nested.length > MAX_AUDIO_SEGMENTS) throw tooManySegments(doc, compId, layer, comp);
        if (nested.length) visit(inner, { windows: nested, levels, depth: ctx.depth + 1 });
      } else if (layer.source.kind === 'footage') {
        const item = byId.get(layer.source.footage);
        const sound = item?.type === 'footage' ? footageSound(item, layer.audio?.stream) : null;
        if (!item || item.type !== 'footage' || !sound || !(sound.duration > 0)) continue;
        // Loops and reversal follow the footage's own length, as its picture does (a video whose sound is a few
        // ms shorter must not drift from it by that much per loop); the sound is heard where it has samples.
        // Played forward without a loop, a sound that outlasts its picture (a clip whose audio runs on) is heard
        // to its own end while the layer lasts: the layer ends with the picture unless its out point is moved.
        const length = footageLength(item, sound.duration);
        const playsOn = !layer.time?.loop && (layer.time?.speed ?? 1) > 0;
        const mapped = playsOn ? Math.max(length, sound.duration) : length;
        const found = windows.flatMap((w) =>
          sourcePieces(layer, w, mapped, sound.duration).map((piece) => topSegment(w, piece, start)),
        );
        segments += branchCount(found);
        if (segments > MAX_AUDIO_SEGMENTS) throw tooManySegments(doc, compId, layer, comp);
        if (found.length)
          clips.push({
            path: item.path,
            stream: sound.stream,
            offset: sound.offset,
            channels: sound.channels,
            segments: found,
            levels,
          });
      }
    }
  };
  const top = byId.get(compId);
  if (top?.type === 'composition')
    visit(top, {
      windows: [{ lo: start, hi: start + duration, c0: start, k: 1 }],
      levels: [],
      depth: 0,
    });
  return { start, duration, clips };
}

/**
 * The length of footage time a layer's time map loops and reverses over: the picture's (the probe's duration)
 * for video, so sound and picture wrap together; a sound-only file's is its sound's.
 */
function footageLength(item: FootageItem, soundDuration: number): number {
  const picture =
    item.media?.kind === 'video' || item.media?.kind === 'sequence' ? item.media.duration : null;
  return picture && picture > 0 ? picture : soundDuration;
}

/**
 * The pieces of `layer`'s source heard over window `w`, in the window's comp time: mapped over the footage's
 * `duration`, each cut to the footage time [0, heard) where the sound has samples.
 */
function sourcePieces(layer: Layer, w: Window, duration: number, heard = duration): Piece[] {
  const [a, b] = [timeIn(w, w.lo), timeIn(w, w.hi)];
  return layerSegments(layer, 0, Math.min(a, b), Math.max(a, b), duration, 0).flatMap((piece) =>
    heard < duration ? (cutTo(piece, heard) ?? []) : [piece],
  );
}

/** `piece` without the footage time past `heard` (silence there), or null when nothing of it is left. */
function cutTo(piece: Piece, heard: number): Piece | null {
  const end = piece.from + piece.length * piece.speed;
  if (end <= heard) return piece;
  if (piece.from >= heard - EPS) return null;
  const length = (heard - piece.from) / piece.speed;
  // Forward, the cut part is the piece's end; reversed, it plays first, so what is left starts later.
  const at = piece.reversed ? piece.at + (piece.length - length) : piece.at;
  return { ...piece, at, length };
}

/** A footage piece placed on the item's timeline: window speed and direction compose with the layer's. */
function topSegment(w: Window, piece: Piece, itemStart: number): AudioSegment {
  const [lo, hi] = spanOf(w, piece);
  return {
    at: lo - itemStart,
    length: hi - lo,
    from: piece.from,
    speed: piece.speed * Math.abs(w.k),
    reversed: piece.reversed !== w.k < 0,
  };
}

/** The window over which a precomp piece shows its composition: its time where the span starts, and its slope. */
function nestedWindow(w: Window, piece: Piece): Window {
  const [lo, hi] = spanOf(w, piece);
  const slope = piece.reversed ? -piece.speed : piece.speed;
  // The piece's source time at comp time c: forward from `from`, or backward from its far end.
  const source = (c: number) =>
    piece.reversed
      ? piece.from + piece.length * piece.speed - (c - piece.at) * piece.speed
      : piece.from + (c - piece.at) * piece.speed;
  return { lo, hi, c0: source(timeIn(w, lo)), k: slope * w.k };
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

/**
 * The level tracks with `layer`'s own added (a constant 0 dB adds nothing and is left out). Its layer time is
 * its composition's time minus its start time: item time shifted, or by windows inside a retimed precomp.
 */
function withLevel(levels: LevelTrack[], layer: Layer, windows: Window[], itemStart: number): LevelTrack[] {
  const level = layer.audio?.level;
  if (!level || (level.keyframes.length === 0 && level.value === 0)) return levels;
  const w = windows[0]!;
  const shifted = windows.every((v) => v.k === 1 && v.c0 - v.lo === w.c0 - w.lo);
  // Layer time = comp time - startTime = (item time + itemStart) - (lo - c0) - startTime.
  if (shifted) return [...levels, { level, shift: w.lo - w.c0 + layer.startTime - itemStart }];
  const track: LevelWindow[] = windows.map((v) => ({
    lo: v.lo - itemStart,
    hi: v.hi - itemStart,
    l0: v.c0 - layer.startTime,
    k: v.k,
  }));
  return [...levels, { level, shift: 0, windows: track }];
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

/** Names the item's composition and the layer (in its own composition) at which the count went past the limit. */
function tooManySegments(doc: Project, compId: string, layer: Layer, inComp: Composition): EngineError {
  const top = doc.items.find((i) => i.id === compId);
  return new EngineError(
    'bad_argument',
    `The sound of "${top?.name ?? compId}" needs more than ${MAX_AUDIO_SEGMENTS} separate pieces of footage, past that at layer "${layer.name}" of "${inComp.name}" (a loop's repeats count one per ${RUN_GROUP}; short loops over many hours, or many uses of precomps with sound, typically).`,
    'Render a shorter frame range, loop a longer sound, or render the looping sound to a WAV first and use that as footage.',
  );
}
