/**
 * Which moment of which footage a frame shows: the walk over a composition's layers at a comp time, into its
 * precomps at their own (mapped) times, that the renderer makes before drawing (to decode what is needed) and
 * whose time rules the drawing code shares (so both agree on the frame). Pure.
 */
import {
  blendFrames,
  footageTime,
  nearestFrame,
  type Composition,
  type FootageItem,
  type Layer,
  type Project,
} from '../../engine/core.js';
import { layerTime } from '../../engine/layer-transform.js';
import { MAX_NESTED_COMPOSES } from '../nesting.js';

/** Precomps deeper than this are not followed (the compositor refuses them anyway). */
const MAX_DEPTH = 32;

/** Video and image sequences: footage whose picture changes with time. */
export function isMoving(item: FootageItem): boolean {
  return item.media?.kind === 'video' || item.media?.kind === 'sequence';
}

/**
 * The source time a footage or precomp layer shows at layer time `lt` (its time map applied), or null when it
 * shows nothing then. Layer time is comp time minus start time, so the start time is already taken off.
 */
export function sourceTime(
  layer: Layer,
  lt: number,
  duration: number,
  frameRate: number | null,
): number | null {
  return footageTime({ startTime: 0, time: layer.time }, lt, duration, frameRate ? 1 / frameRate : 0);
}

/** A reversed (not frozen) layer of a clip of variable frame rate: its last frame's time only its timestamps tell. */
function reversedVariable(layer: Layer, item: FootageItem): boolean {
  const map = layer.time;
  return !!map && map.speed < 0 && map.freezeAt === null && !!item.media?.variableFrameRate;
}

/**
 * The source time of a moving footage item (its average frame rate stands for its last frame's length). A
 * reversed clip of variable frame rate is mapped over its whole length instead, from its very end: onTimestamps
 * then moves that back to its last frame's own time.
 */
export function footageSourceTime(layer: Layer, lt: number, item: FootageItem): number | null {
  const rate = reversedVariable(layer, item) ? null : (item.media?.frameRate ?? null);
  return sourceTime(layer, lt, item.media?.duration ?? 0, rate);
}

/**
 * The source time `t` (footageSourceTime's) corrected by the clip's own frame times: a reversed clip of variable
 * frame rate starts at its last frame's timestamp, which only the timestamps tell (its end minus one average
 * frame was several frames early for a clip whose last frames come fast, and a layer of its default length then
 * ended before the first frames). Its first frame is held for as long as its last lasts (to the layer's end).
 * Unchanged otherwise.
 */
function onTimestamps(layer: Layer, item: FootageItem, t: number, timestamps: ArrayLike<number>): number {
  if (!timestamps.length) return t;
  const lastTime = timestamps[timestamps.length - 1]!;
  const duration = item.media?.duration ?? 0;
  if (reversedVariable(layer, item)) {
    // The end the file states may even fall short of its last frame (projects imported before vfr-end.ts).
    return Math.max(0, t - (duration - lastTime));
  }
  // A constant-rate clip reversed starts at its end minus one frame, which is its last frame's time unless the
  // file states more than its frames last: an MP4 cut mid-frame with -c copy (-ss 2.3 at 25 fps) has an edit
  // list of 7.70 s over 192 frames (7.68 s), so it started half a frame late and showed the frame after the
  // right one on half the frames of a 30 fps composition. Its first frame is held for that difference.
  const rate = item.media?.frameRate;
  const map = layer.time;
  if (!rate || !map || map.speed >= 0 || map.freezeAt !== null) return t;
  const late = duration - 1 / rate - lastTime;
  return late > 1e-9 ? Math.max(0, t - late) : t;
}

/**
 * The frames of a moving footage item a layer shows at source time `source` (footageSourceTime's), by the clip's
 * own `timestamps`: the nearest one (`a` = `b`, weight 0), or with `blend` the two around it and the later one's
 * weight. A looping layer's next pass begins at the clip's end (loopPeriod). The one rule for the frames the
 * renderer decodes, draws, and takes as a plate, so they cannot disagree.
 */
export function shownFrames(
  layer: Layer,
  item: FootageItem,
  source: number,
  timestamps: ArrayLike<number>,
  blend: boolean,
): { a: number; b: number; weight: number } {
  const t = onTimestamps(layer, item, source, timestamps);
  const period = loopPeriod(layer, item);
  if (blend) return blendFrames(timestamps, t, period);
  const a = nearestFrame(timestamps, t, period);
  return { a, b: a, weight: 0 };
}

/**
 * The length after which a looping layer's clip starts again (its next pass's first frame is then a neighbour of
 * its last one: nearestFrame and blendFrames' `period`); undefined when it does not loop, is frozen, or is a
 * reversed clip of variable frame rate (whose times onTimestamps moves, holding its first frame instead).
 */
function loopPeriod(layer: Layer, item: FootageItem): number | undefined {
  const map = layer.time;
  if (!map?.loop || map.freezeAt !== null || reversedVariable(layer, item)) return undefined;
  return item.media?.duration ?? undefined;
}

/** The nested composition's time a precomp layer shows at layer time `lt`: lt itself unless retimed. */
export function precompTime(layer: Layer, lt: number, nested: Composition): number | null {
  return layer.time ? sourceTime(layer, lt, nested.duration, nested.frameRate) : lt;
}

/** Calls `visit` for every footage layer drawn in `comp` at `t`, nested compositions included. */
export function visitFootageLayers(
  doc: Project,
  comp: Composition,
  t: number,
  visit: (item: FootageItem, layer: Layer, lt: number) => void,
): void {
  const byId = new Map(doc.items.map((i) => [i.id, i]));
  // Precomp fan-outs multiply (ten layers of ten layers...): a composition at one time is walked once.
  const seen = new Set<string>();
  const walk = (c: Composition, time: number, stack: string[]) => {
    if (stack.includes(c.id) || stack.length > MAX_DEPTH) return;
    const key = `${c.id}@${time}`;
    // Past the compositor's own bound the frame is refused when drawn (nesting.ts): no need to walk further.
    if (seen.has(key) || seen.size > MAX_NESTED_COMPOSES) return;
    seen.add(key);
    const mattes = new Set(c.layers.flatMap((l) => (l.trackMatte ? [l.trackMatte.layer] : [])));
    for (const layer of c.layers) {
      if (!(layer.enabled || mattes.has(layer.id)) || time < layer.inPoint || time >= layer.outPoint)
        continue;
      const lt = layerTime(layer, time);
      const src = layer.source;
      const item =
        src.kind === 'footage' || src.kind === 'precomp'
          ? byId.get(src.kind === 'footage' ? src.footage : src.comp)
          : undefined;
      if (item?.type === 'footage') visit(item, layer, lt);
      if (item?.type === 'composition') {
        const nt = precompTime(layer, lt, item);
        if (nt !== null) walk(item, nt, [...stack, c.id]);
      }
    }
  };
  walk(comp, t, []);
}
