import { describe, expect, it } from 'vitest';
import { concatList } from '../../../../src/render/distributed/join-segments.js';

const chunk = (start: number, frames: number, path: string) => ({
  start,
  frames,
  skipped: 0,
  files: [{ path, bytes: 1, sha256: '' }],
  kept: [],
});

describe('the concat list of joined segments', () => {
  it("gives each segment its exact duration, rounded so that the seams' times never drift", () => {
    // 30 fps, 20 frames: 0.666667 s; the three seams land on round(20 k / 30 s) in microseconds.
    const list = concatList([chunk(100, 20, '/o/a'), chunk(120, 20, "/o/it's"), chunk(140, 15, '/o/c')], 30);
    expect(list).toBe(
      [
        "file 'file:/o/a'",
        'duration 0.666667',
        "file 'file:/o/it'\\''s'",
        'duration 0.666666',
        "file 'file:/o/c'",
        'duration 0.500000',
        '',
      ].join('\n'),
    );
  });
});
