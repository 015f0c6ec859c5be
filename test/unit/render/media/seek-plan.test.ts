import { describe, expect, it } from 'vitest';
import { seekPlan } from '../../../../src/render/media/seek-plan.js';
import { parseKeyframeTimes } from '../../../../src/render/media/timestamps.js';

const at30 = Array.from({ length: 90 }, (_, i) => i / 30);

describe('seekPlan', () => {
  it('seeks half a frame before the wanted one, counted from the file start', () => {
    expect(seekPlan(at30, 0, 0.5, null)).toEqual({ seek: 0 });
    expect(seekPlan(at30, 36, 0, null).seek).toBeCloseTo(1.2 - 1 / 60, 9);
    expect(seekPlan(at30, 36, 0.5, null).seek).toBeCloseTo(1.7 - 1 / 60, 9);
  });

  it('without an index: before the key frame at or before the wanted one, the rest dropped by time', () => {
    const keys = [0, 8 / 30, 16 / 30, 32 / 30, 40 / 30];
    const plan = seekPlan(at30, 36, 0.25, keys);
    expect(plan.seek).toBeCloseTo(0.25 + 32 / 30 - 0.5, 9);
    expect(plan.seek + plan.trim!).toBeCloseTo(0.25 + 1.2 - 1 / 60, 9);
    // On a key frame: that one.
    expect(seekPlan(at30, 40, 0, keys).seek).toBeCloseTo(40 / 30 - 0.5, 9);
    // Before the second key frame, or no key frame times at all (a raw stream): from the start.
    for (const [at, plan] of [
      [5, seekPlan(at30, 5, 0, keys)],
      [50, seekPlan(at30, 50, 0, [])],
    ] as const) {
      expect(plan.seek).toBe(0);
      expect(plan.trim).toBeCloseTo(at / 30 - 1 / 60, 9);
    }
  });
});

describe('parseKeyframeTimes', () => {
  it('reads key packets in the time base, from the first packet, in order', () => {
    const text = '132000,K_,\n\n144000,__,\n138000,__,\n156000,K_,\nN/A,K_\n1/90000\n';
    expect([...parseKeyframeTimes(text)!]).toEqual([0, 24000 / 90000]);
    expect([...parseKeyframeTimes('N/A,K_\nN/A,__\n1/90000\n')!]).toEqual([]);
  });

  it('is null when only some packets carry a time (MPEG-PS of small pictures: a seek by time lands off)', () => {
    expect(parseKeyframeTimes('48600,K_,\nN/A,K_,\nN/A,K_,\n113400,K_,\n1/90000,\n')).toBeNull();
  });

  it('reads the key frames of a clip with more packets than a call takes arguments (over an hour at 30 fps)', () => {
    // 210,000 packets, a key frame every 30: Math.min(...packets) threw "Maximum call stack size exceeded", and
    // the clip was then read from its start for every seek.
    const lines = Array.from({ length: 210_000 }, (_, i) => `${(i + 10) * 3000},${i % 30 ? '__' : 'K_'},`);
    const keys = parseKeyframeTimes([...lines, '1/90000'].join('\n'))!;
    expect(keys.length).toBe(210_000 / 30);
    expect(keys[0]).toBe(0);
    expect(keys[1]).toBeCloseTo(1, 9);
  });
});
