/** What the compositing functions share during one frame. */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Composition, Project } from '../engine/index.js';
import type { FrameFootage } from './footage.js';
import type { Mat } from '../engine/affine.js';
import type { Surface, SurfacePool } from './surfaces.js';

export interface ComposeEnv {
  doc: Project;
  pool: SurfacePool;
  footage: FrameFootage;
  /** A scratch context for measuring text. */
  measure: SKRSContext2D;
  warn(message: string): void;
  /** Ids of the compositions being composed, outermost first (cycle check). */
  stack: string[];
  /** Composes `comp` at comp time `t` into a new pooled surface (see compositor.ts). */
  compose(comp: Composition, t: number, width: number, height: number, base: Mat): Surface;
}
