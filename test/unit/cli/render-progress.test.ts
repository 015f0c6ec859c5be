import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressView } from '../../../src/cli/render-progress.js';

/** A log (not a terminal) that keeps what is written. */
function log(): { out: NodeJS.WriteStream; lines: string[] } {
  const lines: string[] = [];
  const out = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
  return { out, lines };
}

describe('render progress on a log', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('keeps each item its own rate when two render at once (a --data batch on the workers)', () => {
    const { out, lines } = log();
    const view = new ProgressView(out);
    // Two items of 40 frames, each rendering 10 frames a second, their events interleaved every 50 ms.
    for (let f = 1; f <= 40; f++) {
      vi.advanceTimersByTime(50);
      view.update({ itemId: 'rq_1', framesDone: f, framesTotal: 40, itemsDone: 0, itemsTotal: 2 });
      vi.advanceTimersByTime(50);
      view.update({ itemId: 'rq_2', framesDone: f, framesTotal: 40, itemsDone: 0, itemsTotal: 2 });
    }
    // Each item's start and end, and a line every 2 s between: not a line an event (80 events).
    expect(lines.length).toBeLessThanOrEqual(8);
    const rates = lines
      .filter((l) => / fps /.test(l) && !/ 1\/40 /.test(l))
      .map((l) => Number(/ ([\d.]+) fps /.exec(l)![1]));
    expect(rates.length).toBeGreaterThan(0);
    for (const fps of rates) expect(fps).toBeGreaterThan(8);
    expect(lines.filter((l) => l.includes('40/40 frames  done in 4s'))).toHaveLength(2);
  });

  it('prints an item in order: its start, every 2 s, its end', () => {
    const { out, lines } = log();
    const view = new ProgressView(out);
    for (let f = 0; f <= 50; f++) {
      view.update({ itemId: 'rq_1', framesDone: f, framesTotal: 50, itemsDone: 0, itemsTotal: 1 });
      vi.advanceTimersByTime(100);
    }
    expect(lines[0]).toMatch(/^render: rq_1 \(1\/1\) 0\/50 frames/);
    expect(lines.at(-1)).toMatch(/rq_1 \(1\/1\) 50\/50 frames {2}done in 5s/);
    expect(lines.some((l) => /20\/50 frames {2}10\.0 fps {2}3s left/.test(l))).toBe(true);
  });

  it('says an item skipped whole is done once (its frames are reported done as it starts and as it ends)', () => {
    // Until 2026-12-07 a WAV that existed, rendered again with --skip-existing, logged
    // "render: rq_1 (1/1) 90/90 frames  done in 0s" twice.
    const { out, lines } = log();
    const view = new ProgressView(out);
    view.update({ itemId: 'rq_1', framesDone: 90, framesTotal: 90, itemsDone: 0, itemsTotal: 2 });
    vi.advanceTimersByTime(300);
    view.update({ itemId: 'rq_1', framesDone: 90, framesTotal: 90, itemsDone: 0, itemsTotal: 2 });
    view.update({ itemId: 'rq_2', framesDone: 0, framesTotal: 10, itemsDone: 1, itemsTotal: 2 });
    expect(lines).toEqual([
      'render: rq_1 (1/2) 90/90 frames  done in 0s\n',
      'render: rq_2 (2/2) 0/10 frames  0.0 fps  -- left\n',
    ]);
  });
});
