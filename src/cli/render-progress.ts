/** Render progress on stderr: a redrawn bar with frames/s and time left on a terminal, plain lines otherwise. */
import type { JobProgress } from '../render/queue/job.js';

const BAR = 24;
const LINE_INTERVAL_MS = 2000;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.max(0, Math.round(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** When an item's first event came, and the frames it had then (skipped ones: not part of its speed). */
interface ItemClock {
  start: number;
  base: number;
}

export class ProgressView {
  readonly #out: NodeJS.WriteStream;
  readonly #tty: boolean;
  readonly #start = Date.now();
  // Per item: a --data batch on the workers renders several items at once (lanes.ts), their events interleaved;
  // one clock for "the current item" restarted at every switch and read ~0 fps, a line an event.
  readonly #clocks = new Map<string, ItemClock>();
  // Items whose end was printed: an item skipped whole (--skip-existing, --resume over a one-file output that
  // exists) reports its frames done as it starts and again as it completes; both read "done", said once.
  readonly #ended = new Set<string>();
  #lastLine = 0;
  #drawn = false;

  constructor(out: NodeJS.WriteStream) {
    this.#out = out;
    this.#tty = Boolean(out.isTTY);
  }

  update(p: JobProgress): void {
    // An item's end event repeats its last figures (a done item's were printed); the summary says how it ended.
    if (p.status) return;
    const now = Date.now();
    const finished = p.framesTotal > 0 && p.framesDone === p.framesTotal;
    if (finished && this.#ended.has(p.itemId)) return;
    let clock = this.#clocks.get(p.itemId);
    const first = !clock;
    if (!clock) {
      // The first event already counts skipped frames: they are not part of the rendering speed.
      clock = { start: now, base: p.framesDone };
      this.#clocks.set(p.itemId, clock);
    }
    const elapsed = (now - clock.start) / 1000;
    const fps = elapsed > 0.2 ? (p.framesDone - clock.base) / elapsed : 0;
    const left = fps > 0 ? (p.framesTotal - p.framesDone) / fps : Infinity;
    const pct = p.framesTotal ? p.framesDone / p.framesTotal : 0;
    // A finished item says how long it took; a rate measured from nothing (a sound-only item reports its frames
    // when its file is written, all at once) would read "0.0 fps -- left".
    const pace = finished ? `done in ${duration(elapsed)}` : `${fps.toFixed(1)} fps  ${duration(left)} left`;
    const text = `${p.itemId} (${p.itemsDone + 1}/${p.itemsTotal}) ${p.framesDone}/${p.framesTotal} frames  ${pace}`;
    if (finished) {
      this.#clocks.delete(p.itemId);
      this.#ended.add(p.itemId);
    }
    if (this.#tty) {
      // Redraw at most 10 times a second (and on an item's last frame): a terminal is slow to repaint.
      if (now - this.#lastLine < 100 && !finished) return;
      this.#lastLine = now;
      const fill = Math.round(pct * BAR);
      this.#out.write(
        `\r\x1b[2K[${'#'.repeat(fill)}${'-'.repeat(BAR - fill)}] ${Math.floor(pct * 100)}% ${text}`,
      );
      this.#drawn = true;
      return;
    }
    // A log gets an item's start and end, and a line every 2 s between.
    if (first || finished || now - this.#lastLine >= LINE_INTERVAL_MS) {
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
