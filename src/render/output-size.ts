/**
 * The size of a rendered frame: the composition at a scale. Apart from the renderer (and Skia) so that the
 * render job's main thread can know it before any worker has drawn a frame: a video's encoder is started with
 * it while the workers load (queue/exporters/video.ts).
 */
import { EngineError, type Composition } from '../engine/core.js';

/** Largest side of any surface; beyond this Skia allocations get unreasonable. */
export const MAX_SURFACE_SIDE = 16384;

/** Output size for `scale`, at least 1 × 1 and at most the largest surface Skia is asked for. */
export function outputSize(comp: Composition, scale: number): { width: number; height: number } {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new EngineError(
      'bad_argument',
      `Render scale ${scale} is not a positive number.`,
      'Pass a scale such as 0.5, 1 or 2.',
    );
  }
  const width = Math.max(1, Math.round(comp.width * scale));
  const height = Math.max(1, Math.round(comp.height * scale));
  if (width > MAX_SURFACE_SIDE || height > MAX_SURFACE_SIDE) {
    throw new EngineError(
      'bad_argument',
      `A ${width}x${height} frame is larger than the renderer's limit of ${MAX_SURFACE_SIDE} pixels a side.`,
      'Lower the scale.',
    );
  }
  return { width, height };
}
