/** Frame times to "unevenly spaced": Matroska's whole-millisecond rounding is even, a held frame is not. */
import { describe, expect, it } from 'vitest';
import { spacedUnevenly } from '../../../../src/render/media/closer-look.js';

describe('spacedUnevenly', () => {
  it('takes 29.97 fps rounded to whole milliseconds (gaps of 33 and 34 ms) as even', () => {
    const times = Array.from({ length: 90 }, (_, n) => Math.round((n * 1001) / 30) / 1000);
    expect(spacedUnevenly(times)).toBe(false);
  });

  it('finds a frame held for two frame lengths, and a rate that changes half-way', () => {
    expect(spacedUnevenly([0, 0.042, 0.083, 0.167, 0.208, 0.25])).toBe(true);
    expect(spacedUnevenly([0, 0.042, 0.083, 0.125, 0.208, 0.292])).toBe(true);
  });

  it('says nothing of two frames or fewer', () => {
    expect(spacedUnevenly([0, 1])).toBe(false);
    expect(spacedUnevenly([])).toBe(false);
  });
});
