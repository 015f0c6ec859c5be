/** Image sequence patterns: printf fields, numbered first files, and finding the run. */
import { describe, expect, it } from 'vitest';
import {
  findRun,
  isSequencePattern,
  patternOfFile,
  sequenceFrame,
} from '../../../src/engine/image-sequence.js';

describe('image sequences', () => {
  it('expands printf fields and derives patterns from numbered files', () => {
    expect(sequenceFrame('/s/f_%04d.png', 7)).toBe('/s/f_0007.png');
    expect(sequenceFrame('/s/f%d.png', 12)).toBe('/s/f12.png');
    expect(isSequencePattern('/s/f_%04d.png')).toBe(true);
    expect(isSequencePattern('/s/100%/f.png')).toBe(false);
    expect(patternOfFile('/s/shot_v2_0010.exr')).toEqual({ pattern: '/s/shot_v2_%04d.exr', number: 10 });
    expect(patternOfFile('/s/f7.png')).toEqual({ pattern: '/s/f%d.png', number: 7 });
    expect(patternOfFile('/s/still.png')).toBeNull();
  });

  it('finds the run from a given first number or from 0..4, ending at the first gap', async () => {
    const files = new Set(['/s/f_0002.png', '/s/f_0003.png', '/s/f_0004.png', '/s/f_0006.png']);
    const exists = async (p: string) => files.has(p);
    expect(await findRun('/s/f_%04d.png', null, exists)).toEqual({ first: 2, last: 4 });
    expect(await findRun('/s/f_%04d.png', 3, exists)).toEqual({ first: 3, last: 4 });
    expect(await findRun('/s/f_%04d.png', 5, exists)).toBeNull();
  });
});
