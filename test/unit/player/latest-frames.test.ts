/** The preview player's frame requests: the newest wanted frame wins, stale replies are dropped, nothing queues. */
import { describe, expect, it } from 'vitest';
import { LatestFrames } from '../../../src/player/view/latest-frames.js';

/** A fetch whose replies the test releases by hand, in any order. */
function manualFetch() {
  const pending: { frame: number; resolve(v: string): void; reject(e: unknown): void }[] = [];
  const fetch = (frame: number) =>
    new Promise<string>((resolve, reject) => pending.push({ frame, resolve, reject }));
  return { fetch, pending };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('LatestFrames', () => {
  it('asks for at most two frames at once and skips positions passed over meanwhile', async () => {
    const { fetch, pending } = manualFetch();
    const shown: number[] = [];
    const frames = new LatestFrames<string>({ fetch, show: (f) => shown.push(f), fail: () => undefined });
    for (let f = 1; f <= 42; f++) frames.want(f);
    expect(pending.map((p) => p.frame)).toEqual([1, 2]);
    pending[0]!.resolve('1');
    await settle();
    // The slider is at 42 now: that is the next (and only other) frame asked for.
    expect(pending.map((p) => p.frame)).toEqual([1, 2, 42]);
    pending[1]!.resolve('2');
    pending[2]!.resolve('42');
    await settle();
    expect(shown).toEqual([1, 2, 42]);
  });

  it('drops a reply that comes back after a newer one, so the frame at rest is the last one asked for', async () => {
    const { fetch, pending } = manualFetch();
    const shown: string[] = [];
    const dropped: number[] = [];
    const frames = new LatestFrames<string>({
      fetch,
      show: (_f, v) => shown.push(v),
      fail: () => undefined,
      dropped: (f) => dropped.push(f),
    });
    frames.want(41);
    frames.want(42);
    pending[1]!.resolve('42');
    await settle();
    pending[0]!.resolve('41 (late)');
    await settle();
    expect(shown).toEqual(['42']);
    expect(frames.dropped).toBe(1);
    expect(dropped).toEqual([41]);
  });

  it('does not ask twice for the frame it is showing, and asks again on refresh', async () => {
    const { fetch, pending } = manualFetch();
    const frames = new LatestFrames<string>({ fetch, show: () => undefined, fail: () => undefined });
    frames.want(7);
    pending[0]!.resolve('7');
    await settle();
    frames.want(7);
    expect(pending).toHaveLength(1);
    frames.refresh(7);
    expect(pending).toHaveLength(2);
  });

  it('reports a failure of the newest request, and not one that a newer frame made stale', async () => {
    const { fetch, pending } = manualFetch();
    const failed: number[] = [];
    const shown: number[] = [];
    const frames = new LatestFrames<string>({
      fetch,
      show: (f) => shown.push(f),
      fail: (f) => failed.push(f),
    });
    frames.want(1);
    frames.want(2);
    pending[1]!.resolve('2');
    await settle();
    pending[0]!.reject(new Error('stale'));
    await settle();
    expect(failed).toEqual([]);
    frames.want(3);
    pending[2]!.reject(new Error('bad frame'));
    await settle();
    expect(failed).toEqual([3]);
    expect(shown).toEqual([2]);
  });

  it('ignores replies after dispose, and asks for nothing more', async () => {
    const { fetch, pending } = manualFetch();
    const shown: number[] = [];
    const frames = new LatestFrames<string>({ fetch, show: (f) => shown.push(f), fail: () => undefined });
    frames.want(1);
    frames.dispose();
    frames.want(2);
    pending[0]!.resolve('1');
    await settle();
    expect(shown).toEqual([]);
    expect(pending).toHaveLength(1);
  });
});
