/**
 * A small pool of Skia canvases. Compositing needs scratch surfaces (layer surfaces, matte buffers,
 * nested comps); allocating a 1080p raster per use costs more than the drawing, so they are reused.
 * The pool keeps a bounded number of free canvases so memory stays bounded.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { resetState } from './paint.js';
import { MAX_SURFACE_SIDE } from './output-size.js';

const MAX_FREE = 8;
/** Bytes of free canvases kept for reuse; beyond it the oldest are dropped (memory stays bounded). */
const MAX_FREE_BYTES = 192 * 1024 * 1024;

export interface Surface {
  canvas: Canvas;
  ctx: SKRSContext2D;
}

export class SurfacePool {
  #free: Surface[] = [];

  /** A cleared surface of exactly w × h pixels, in the default state. */
  acquire(width: number, height: number): Surface {
    const w = Math.max(1, Math.min(MAX_SURFACE_SIDE, Math.ceil(width)));
    const h = Math.max(1, Math.min(MAX_SURFACE_SIDE, Math.ceil(height)));
    const i = this.#free.findIndex((s) => s.canvas.width === w && s.canvas.height === h);
    if (i >= 0) {
      const s = this.#free.splice(i, 1)[0]!;
      resetState(s.ctx);
      s.ctx.clearRect(0, 0, w, h);
      return s;
    }
    const canvas = createCanvas(w, h);
    const ctx = canvas.getContext('2d');
    // Deterministic text: no dependence on the host language.
    ctx.lang = 'en';
    return { canvas, ctx };
  }

  release(surface: Surface): void {
    this.#free.push(surface);
    const bytes = () => this.#free.reduce((n, f) => n + f.canvas.width * f.canvas.height * 4, 0);
    while (this.#free.length > MAX_FREE || (this.#free.length > 1 && bytes() > MAX_FREE_BYTES))
      this.#free.shift();
  }

  clear(): void {
    this.#free = [];
  }
}
