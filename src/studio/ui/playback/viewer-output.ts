/**
 * Paints frames onto the viewer canvas: a checkerboard first when the frame is transparent, then the frame.
 * `data-revision` and `data-frame` are set here, in the same task as the paint, so whoever waits on them
 * (tests, benchmarks, agents) sees exactly the picture that is on screen.
 */
import type { Frame } from '../live/frames.js';

const CHECKER = 8;

export class ViewerOutput {
  #canvas: HTMLCanvasElement | null = null;
  #checker: CanvasPattern | null = null;
  #last: Frame | null = null;

  /** The viewer component hands its canvas over when it mounts (and null when it unmounts). */
  attach(canvas: HTMLCanvasElement | null): void {
    this.#canvas = canvas;
    this.#checker = null;
    if (canvas && this.#last) this.paint(this.#last);
  }

  paint(frame: Frame): void {
    this.#last = frame;
    const canvas = this.#canvas;
    const ctx = canvas?.getContext('2d');
    // A frame the cache evicted has a closed (0x0) bitmap: nothing to draw from it any more.
    if (!canvas || !ctx || frame.bitmap.width === 0) return;
    if (canvas.width !== frame.width) canvas.width = frame.width;
    if (canvas.height !== frame.height) canvas.height = frame.height;
    ctx.clearRect(0, 0, frame.width, frame.height);
    if (frame.transparent) {
      this.#checker ??= checkerPattern(ctx);
      if (this.#checker) {
        ctx.fillStyle = this.#checker;
        ctx.fillRect(0, 0, frame.width, frame.height);
      }
    }
    ctx.drawImage(frame.bitmap, 0, 0);
    canvas.dataset.revision = String(frame.revision);
    canvas.dataset.frame = String(frame.frame);
  }
}

function checkerPattern(ctx: CanvasRenderingContext2D): CanvasPattern | null {
  const tile = document.createElement('canvas');
  tile.width = tile.height = CHECKER * 2;
  const t = tile.getContext('2d');
  if (!t) return null;
  t.fillStyle = '#bdbdbd';
  t.fillRect(0, 0, CHECKER * 2, CHECKER * 2);
  t.fillStyle = '#8a8a8a';
  t.fillRect(0, 0, CHECKER, CHECKER);
  t.fillRect(CHECKER, CHECKER, CHECKER, CHECKER);
  return ctx.createPattern(tile, 'repeat');
}
