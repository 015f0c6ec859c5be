// The rate ffmpeg is told: broadcast rates typed in decimals are the 1001 fractions; others as they are.
import { describe, expect, it } from 'vitest';
import { exactRate, ffmpegRate } from '../../../../src/render/queue/exporters/frame-rate.js';

describe('ffmpegRate', () => {
  it.each([
    [23.976, '24000/1001'],
    [29.97, '30000/1001'],
    [59.94, '60000/1001'],
    [47.952, '48000/1001'],
    [119.88, '120000/1001'],
    [30000 / 1001, '30000/1001'],
  ])('writes %s as %s', (fps, rate) => expect(ffmpegRate(fps)).toBe(rate));

  it.each([24, 25, 30, 60, 12.5, 29.9, 15, 7.5])('writes %s as it is', (fps) =>
    expect(ffmpegRate(fps)).toBe(String(fps)),
  );

  it('gives the fraction as a number for timestamps', () => {
    expect(exactRate(29.97)).toBe(30000 / 1001);
    expect(exactRate(25)).toBe(25);
  });
});
