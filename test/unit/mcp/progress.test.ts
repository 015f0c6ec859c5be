import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgressReporter, type ProgressNotificationParams } from '../../../src/mcp/progress.js';

describe('createProgressReporter', () => {
  let clock = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
  });
  afterEach(() => vi.useRealTimers());

  function make(signal = new AbortController().signal) {
    const sent: ProgressNotificationParams[] = [];
    const r = createProgressReporter({ token: 't', signal, send: (p) => sent.push(p), now: () => clock });
    return { r, sent };
  }
  const advance = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };

  it('sends at most ten per second and coalesces to the newest value', () => {
    const { r, sent } = make();
    for (let i = 1; i <= 1000; i++) {
      r.report({ progress: i / 1000, total: 1 });
      advance(1); // 1000 updates over one second
    }
    advance(200);
    expect(sent.length).toBeLessThanOrEqual(11);
    expect(sent.length).toBeGreaterThanOrEqual(9);
    expect(sent.at(-1)!.progress).toBe(1);
    for (let i = 1; i < sent.length; i++) {
      expect(sent[i]!.progress).toBeGreaterThan(sent[i - 1]!.progress);
    }
    expect(sent[0]).toMatchObject({ progressToken: 't', total: 1 });
  });

  it('drops values that do not increase', () => {
    const { r, sent } = make();
    r.report({ progress: 5 });
    advance(150);
    r.report({ progress: 5 });
    advance(150);
    r.report({ progress: 3 });
    advance(150);
    r.report({ progress: 6, message: 'six' });
    advance(150);
    expect(sent.map((s) => s.progress)).toEqual([5, 6]);
    expect(sent[1]!.message).toBe('six');
  });

  it('sends nothing after the signal aborts, including a pending trailing update', () => {
    const ac = new AbortController();
    const { r, sent } = make(ac.signal);
    r.report({ progress: 1 });
    r.report({ progress: 2 }); // pending behind the rate limit
    ac.abort();
    advance(1000);
    r.report({ progress: 3 });
    advance(1000);
    expect(sent.map((s) => s.progress)).toEqual([1]);
  });

  it('sends the pending last state at stop() (the request finished), then nothing', () => {
    const { r, sent } = make();
    r.report({ progress: 1, total: 2 });
    r.report({ progress: 2, total: 2, message: 'frame 10/10' }); // pending behind the rate limit
    r.stop();
    expect(sent.map((s) => s.progress)).toEqual([1, 2]);
    expect(sent[1]).toMatchObject({ total: 2, message: 'frame 10/10' });
    r.report({ progress: 3 });
    advance(1000);
    expect(sent.map((s) => s.progress)).toEqual([1, 2]);
  });

  it('sends no pending update at stop() once the signal aborted', () => {
    const ac = new AbortController();
    const { r, sent } = make(ac.signal);
    r.report({ progress: 1 });
    r.report({ progress: 2 });
    ac.abort();
    r.stop();
    advance(1000);
    expect(sent.map((s) => s.progress)).toEqual([1]);
  });
});
