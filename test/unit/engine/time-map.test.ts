import { describe, expect, it } from 'vitest';
import { blendFrames, constantTimestamps, footageTime, nearestFrame } from '../../../src/engine/time-map.js';

const layer = (startTime = 0, time?: { speed: number; loop: boolean; freezeAt: number | null }) => ({
  startTime,
  time,
});

describe('footageTime', () => {
  it('offsets by the layer start and scales by the speed', () => {
    expect(footageTime(layer(1), 1.5, 10)).toBeCloseTo(0.5);
    expect(footageTime(layer(0, { speed: 2, loop: false, freezeAt: null }), 1, 10)).toBeCloseTo(2);
    expect(footageTime(layer(0, { speed: 0.5, loop: false, freezeAt: null }), 1, 10)).toBeCloseTo(0.5);
  });

  it('shows nothing before the start or past the end, unless it loops', () => {
    expect(footageTime(layer(1), 0.5, 10)).toBeNull();
    expect(footageTime(layer(0), 10, 10)).toBeNull();
    const looped = layer(0, { speed: 1, loop: true, freezeAt: null });
    expect(footageTime(looped, 12.5, 10)).toBeCloseTo(2.5);
    expect(footageTime({ ...looped, startTime: 1 }, 0.5, 10)).toBeCloseTo(9.5);
  });

  it('never loses a looped frame to rounding at a wrap', () => {
    const looped = layer(0, { speed: 1, loop: true, freezeAt: null });
    const rate = 30000 / 1001;
    const duration = 48 / rate;
    for (let k = 0; k < 500; k++) expect(footageTime(looped, k / rate, duration)).not.toBeNull();
  });

  it('plays a reversed clip from its last frame to its first, one source frame per comp frame', () => {
    const reversed = layer(0, { speed: -1, loop: false, freezeAt: null });
    const ts = constantTimestamps(30, 30);
    const shown = Array.from({ length: 31 }, (_, k) => {
      const t = footageTime(reversed, k / 30, 1, 1 / 30);
      return t === null ? -1 : nearestFrame(ts, t);
    });
    expect(shown).toEqual([...Array.from({ length: 30 }, (_, k) => 29 - k), -1]);
  });

  it('plays reversed sound from its very end', () => {
    const reversed = layer(0, { speed: -1, loop: false, freezeAt: null });
    const t0 = footageTime(reversed, 0, 1)!;
    expect(nearestFrame(constantTimestamps(30, 30), t0)).toBe(29);
    expect(footageTime(reversed, 0.5, 1)).toBeCloseTo(0.5);
    expect(footageTime(reversed, 1, 1)).toBeNull();
  });

  it('freezes on one moment for the whole layer', () => {
    const frozen = layer(0, { speed: 1, loop: false, freezeAt: 0.4 });
    expect(footageTime(frozen, 0, 1)).toBeCloseTo(0.4);
    expect(footageTime(frozen, 5, 1)).toBeCloseTo(0.4);
  });
});

describe('nearestFrame', () => {
  it('maps a 24 fps source into a 30 fps comp by timestamps', () => {
    const ts = constantTimestamps(24, 24);
    // comp frame n at n/30: source frame nearest to it.
    expect(Array.from({ length: 10 }, (_, n) => nearestFrame(ts, n / 30))).toEqual([
      0, 1, 2, 2, 3, 4, 5, 6, 6, 7,
    ]);
  });

  it('follows variable frame rate timestamps, not frame counts', () => {
    const ts = [0, 0.1, 0.15, 0.5, 0.55];
    expect(nearestFrame(ts, 0.3)).toBe(2);
    expect(nearestFrame(ts, 0.34)).toBe(3);
    expect(nearestFrame(ts, 9)).toBe(4);
    expect(nearestFrame(ts, 0)).toBe(0);
  });

  it('hits the exact frame for times made from frame numbers (29.97 fps)', () => {
    const rate = 30000 / 1001;
    const ts = constantTimestamps(300, rate);
    for (const n of [0, 1, 29, 150, 299]) expect(nearestFrame(ts, n / rate)).toBe(n);
  });
});

describe('blendFrames', () => {
  it('weights the two frames around a time', () => {
    const ts = constantTimestamps(10, 10);
    expect(blendFrames(ts, 0.25)).toEqual({ a: 2, b: 3, weight: expect.closeTo(0.5, 6) });
    expect(blendFrames(ts, 0.3)).toEqual({ a: 3, b: 3, weight: 0 });
  });

  it("past a looping clip's last frame, mixes it with the next pass's first", () => {
    const ts = constantTimestamps(10, 10);
    expect(blendFrames(ts, 0.95, 1)).toEqual({ a: 9, b: 0, weight: expect.closeTo(0.5, 6) });
    // Not looping: the last frame holds.
    expect(blendFrames(ts, 0.95)).toEqual({ a: 9, b: 9, weight: 0 });
  });
});

describe('nearestFrame of a looping clip', () => {
  it("takes the next pass's first frame when it is nearer than the last", () => {
    const ts = constantTimestamps(20, 10);
    expect(nearestFrame(ts, 1.9667, 2)).toBe(0);
    expect(nearestFrame(ts, 1.9333, 2)).toBe(19);
    // A tie goes to the earlier frame, as within a pass; without a period the last frame holds.
    expect(nearestFrame(ts, 1.95, 2)).toBe(19);
    expect(nearestFrame(ts, 1.9667)).toBe(19);
  });
});
