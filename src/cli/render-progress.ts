/** Render progress on stderr: a redrawn bar with frames/s and time left on a terminal, plain lines otherwise. */
import type { JobProgress } from '../render/queue/job.js';

const BAR = 24;
const LINE_INTERVAL_MS = 2000;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.max(0, Math.round(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export class ProgressView {
  readonly #out: NodeJS.WriteStream;
  readonly #tty: boolean;
  readonly #start = Date.now();
  #itemStart = Date.now();
  #item = '';
  #base = 0;
  #lastLine = 0;
  #drawn = false;

  constructor(out: NodeJS.WriteStream) {
    this.#out = out;
    this.#tty = Boolean(out.isTTY);
  }

  update(p: JobProgress): void {
    if (p.itemId !== this.#item) {
      this.#item = p.itemId;
      this.#itemStart = Date.now();
      this.#lastLine = 0;
      // The first event already counts skipped frames: they are not part of the rendering speed.
      this.#base = p.framesDone;
    }
    const elapsed = (Date.now() - this.#itemStart) / 1000;
    const fps = elapsed > 0.2 ? (p.framesDone - this.#base) / elapsed : 0;
    const left = fps > 0 ? (p.framesTotal - p.framesDone) / fps : Infinity;
    const pct = p.framesTotal ? p.framesDone / p.framesTotal : 0;
    const finished = p.framesTotal > 0 && p.framesDone === p.framesTotal;
    // A finished item says how long it took; a rate measured from nothing (a sound-only item reports its frames
    // when its file is written, all at once) would read "0.0 fps -- left".
    const pace = finished ? `done in ${duration(elapsed)}` : `${fps.toFixed(1)} fps  ${duration(left)} left`;
    const text = `${p.itemId} (${p.itemsDone + 1}/${p.itemsTotal}) ${p.framesDone}/${p.framesTotal} frames  ${pace}`;
    const now = Date.now();
    if (this.#tty) {
      // Redraw at most 10 times a second (and on the last frame): a terminal is slow to repaint.
      if (now - this.#lastLine < 100 && p.framesDone !== p.framesTotal) return;
      this.#lastLine = now;
      const fill = Math.round(pct * BAR);
      this.#out.write(
        `\r\x1b[2K[${'#'.repeat(fill)}${'-'.repeat(BAR - fill)}] ${Math.floor(pct * 100)}% ${text}`,
      );
      this.#drawn = true;
      return;
    }
    if (p.framesDone === p.framesTotal || now - this.#lastLine >= LINE_INTERVAL_MS) {
      this.#lastLine = now;
      this.#out.write(`render: ${text}\n`);
    }
  }

  /** Ends the bar's line so the summary starts on a fresh one. */
  done(): void {
    if (this.#drawn) this.#out.write('\n');
    this.#drawn = false;
  }

  get elapsedSeconds(): number {
    return (Date.now() - this.#start) / 1000;
  }
}
