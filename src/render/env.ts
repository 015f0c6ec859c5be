/** What the compositing functions share during one frame. */
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { Composition, Layer, Project } from '../engine/index.js';
import type { FrameFootage } from './footage.js';
import type { LayerSurfaceCache } from './layer-cache.js';
import type { SurfacePool } from './surfaces.js';

export interface ComposeEnv {
  doc: Project;
  pool: SurfacePool;
  footage: FrameFootage;
  /** A scratch context for measuring text. */
  measure: SKRSContext2D;
  warn(message: string): void;
  /** Surfaces of layers with static content, kept across this renderer's frames (layer-cache.ts). */
  layerCache?: LayerSurfaceCache;
  /** A layer of the top composition drawn elsewhere (a footage plate, plate.ts): composing skips it. */
  hidden?: Layer;
  /** Ids of the compositions being composed, outermost first (cycle check). */
  stack: string[];
  /**
   * Hands `paint` the frame of nested composition `comp` at its time `t`, `width` × `height` (composed now, or
   * the copy composed earlier in this frame); bounded per frame (see nesting.ts). Valid only during `paint`.
   */
  drawNested(
    comp: Composition,
    t: number,
    width: number,
    height: number,
    paint: (canvas: Canvas) => void,
  ): void;
}
