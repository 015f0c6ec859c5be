/**
 * Footage plates: when the bottom of a frame is a video shown exactly as it is stored (full frame, unmoved,
 * opaque, plain), a render to a YUV encoder takes that video's decoded 4:2:0 samples as the frame's base and
 * converts only the layers above it (yuv/over-plate.ts), instead of decoding the clip to RGBA, drawing it, and
 * converting the whole frame back. The picture is the same (the plate even skips a round trip through RGB); the
 * work per 1080p frame is a third.
 *
 * Everything here is a condition for the result to equal the RGB path's: anything else is drawn as before.
 */
import {
  shownFootage,
  valueAt,
  type Composition,
  type FootageItem,
  type Layer,
  type Project,
} from '../engine/core.js';
import { layerTime, withinInOut, worldMatrices } from '../engine/layer-transform.js';
import { blendsFrames } from './footage.js';
import { untaggedMatrix } from './media/clip-colour.js';
import { footageSourceTime } from './media/frame-plan.js';
import type { YuvMatrix } from './yuv/i420.js';
import type { PlateColour } from './yuv/over-plate.js';

export interface Plate {
  layer: Layer;
  item: FootageItem;
  /** The footage time the layer shows (its time map applied). */
  sourceTime: number;
  colour: PlateColour;
}

function visible(layer: Layer, t: number, mattes: Set<string>): boolean {
  const shown = layer.enabled && layer.source.kind !== 'null' && withinInOut(layer, t);
  return shown && !mattes.has(layer.id);
}

/**
 * How the clip's samples are stored, when a plate can take them as they are: 8-bit 4:2:0 without alpha, a matrix
 * the kernel knows (unstated reads as its size implies, as on the RGB path: clip-colour.ts), limited or full range.
 */
export function yuvPlate(item: FootageItem): PlateColour | null {
  const yuv = item.media?.yuv;
  if (item.media?.kind !== 'video' || item.media.alpha || item.media.pixelAspect !== 1 || !yuv) return null;
  if (yuv.pixelFormat !== 'yuv420p' && yuv.pixelFormat !== 'yuvj420p') return null;
  const matrices: Record<string, YuvMatrix> = {
    bt709: 'bt709',
    smpte170m: 'smpte170m',
    bt470bg: 'smpte170m',
  };
  const matrix = yuv.matrix === null ? untaggedMatrix(item) : matrices[yuv.matrix];
  if (!matrix) return null;
  return { matrix, range: yuv.pixelFormat === 'yuvj420p' || yuv.range === 'pc' ? 'pc' : 'tv' };
}

const IDENTITY = [1, 0, 0, 1, 0, 0];

/**
 * The plate of `comp` at comp time `t` rendered `width` x `height`, or null. The bottom visible layer must be a
 * footage layer of such a clip at the frame's own size, placed exactly over the frame (its world transform the
 * identity: parents included), fully opaque, normal blending, no effects, track matte or frame blending, and
 * showing a frame now; every layer above it must blend normally and none be an adjustment layer (those need
 * the pixels below in RGB). The frame's background is then hidden under the opaque plate.
 */
export function findPlate(
  doc: Project,
  comp: Composition,
  t: number,
  width: number,
  height: number,
): Plate | null {
  if (width !== comp.width || height !== comp.height || width % 2 || height % 2) return null;
  const mattes = new Set(comp.layers.flatMap((l) => (l.trackMatte ? [l.trackMatte.layer] : [])));
  const shown = comp.layers.filter((l) => visible(l, t, mattes));
  const layer = shown.at(-1);
  if (!layer || layer.source.kind !== 'footage') return null;
  const item = shownFootage(doc, layer);
  const colour = item && yuvPlate(item);
  if (!item || !colour || item.width !== width || item.height !== height) return null;
  if (layer.blendMode !== 'normal' || layer.trackMatte || blendsFrames(layer)) return null;
  if (layer.effects.some((e) => e.enabled)) return null;
  const lt = layerTime(layer, t);
  if (valueAt<number>(layer.transform.opacity, lt) < 100) return null;
  const m = worldMatrices(comp, t)(layer);
  if (m.some((v, i) => Math.abs(v - IDENTITY[i]!) > 1e-9)) return null;
  if (shown.some((l) => l !== layer && (l.blendMode !== 'normal' || l.source.kind === 'adjustment')))
    return null;
  const sourceTime = footageSourceTime(layer, lt, item);
  return sourceTime === null ? null : { layer, item, sourceTime, colour };
}
