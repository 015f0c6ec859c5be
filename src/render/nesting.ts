/**
 * Nested compositions within one frame. Precomp layers multiply: ten layers of a comp that holds ten layers of
 * another is a hundred nested frames, and six such levels are a million. So, per frame:
 * - a composition shown at the same local time and size is composed once and drawn from that copy again
 *   (the result would be the same pixels: nested comps are always composed the same way within a frame);
 * - the nested composes and the nesting depth are bounded, checked before each compose, so a frame that
 *   would exceed them stops at once with `bad_argument` instead of holding its thread for minutes.
 */
import type { Canvas } from '@napi-rs/canvas';
import { EngineError, type Composition } from '../engine/core.js';
import type { Surface, SurfacePool } from './surfaces.js';

/** Nested compositions composed for one frame at most (shared ones count once). */
export const MAX_NESTED_COMPOSES = 10_000;
/** Precomps nested deeper than this (the top composition is level 0) are refused. */
export const MAX_NESTING_DEPTH = 32;
/** Bytes of nested frames kept for reuse within a frame; past it, nested frames are composed and dropped. */
const MEMO_BUDGET_BYTES = 256 * 1024 * 1024;

/** Composes `comp` at local time `t` into a new pooled `width` × `height` surface (compositor.ts). */
export type ComposeNested = (comp: Composition, t: number, width: number, height: number) => Surface;

/** One frame's nested compositions: reuse and limits. Create one per frame; `release` when the frame is done. */
export class NestedFrames {
  readonly #pool: SurfacePool;
  readonly #top: Composition;
  readonly #compose: ComposeNested;
  readonly #memo = new Map<string, Surface>();
  #memoBytes = 0;
  #composes = 0;

  /** `top` is the composition the frame is of (named in errors). */
  constructor(pool: SurfacePool, top: Composition, compose: ComposeNested) {
    this.#pool = pool;
    this.#top = top;
    this.#compose = compose;
  }

  /**
   * Hands `paint` the frame of `comp` at local time `t`, `width` × `height`; `stack` holds the ids of the
   * compositions being composed (outermost first), so its length is the depth `comp` is nested at.
   */
  draw(
    stack: readonly string[],
    comp: Composition,
    t: number,
    width: number,
    height: number,
    paint: (canvas: Canvas) => void,
  ): void {
    if (stack.length > MAX_NESTING_DEPTH) throw tooDeep(stack, comp);
    // `${t}` is exact: distinct times give distinct keys. Size fixes the scale (base = size / comp size).
    const key = `${comp.id}@${t}:${width}x${height}`;
    const kept = this.#memo.get(key);
    if (kept) {
      paint(kept.canvas);
      return;
    }
    if (++this.#composes > MAX_NESTED_COMPOSES) throw tooManyComposes(this.#top);
    const surface = this.#compose(comp, t, width, height);
    let keep = false;
    try {
      paint(surface.canvas);
      const bytes = surface.canvas.width * surface.canvas.height * 4;
      keep = this.#memoBytes + bytes <= MEMO_BUDGET_BYTES;
      if (keep) {
        this.#memo.set(key, surface);
        this.#memoBytes += bytes;
      }
    } finally {
      if (!keep) this.#pool.release(surface);
    }
  }

  /** Returns the kept frames to the pool. */
  release(): void {
    for (const surface of this.#memo.values()) this.#pool.release(surface);
    this.#memo.clear();
    this.#memoBytes = 0;
  }
}

function tooManyComposes(top: Composition): EngineError {
  return new EngineError(
    'bad_argument',
    `Composition "${top.name}" needs more than ${MAX_NESTED_COMPOSES.toLocaleString('en-US')} nested composition frames for one frame: its precomp layers multiply level by level, and they show their compositions at different times or sizes, so they cannot be drawn once and reused.`,
    `Use fewer precomp layers or fewer levels; give repeated precomp layers the same start time and scale (those are drawn once); or render a heavy precomp to an image with renderQueue and use it as footage.`,
  );
}

function tooDeep(stack: readonly string[], comp: Composition): EngineError {
  const chain = [...stack, comp.id];
  const shown = chain.length > 8 ? [...chain.slice(0, 3), '…', ...chain.slice(-3)] : chain;
  return new EngineError(
    'bad_argument',
    `Precomps are nested more than ${MAX_NESTING_DEPTH} levels deep (${shown.join(' -> ')}).`,
    `Flatten the nesting to at most ${MAX_NESTING_DEPTH} levels: move the layers of inner compositions up into their parents.`,
  );
}
