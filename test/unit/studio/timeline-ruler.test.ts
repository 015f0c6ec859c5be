// The timeline ruler's tick labels: seconds, then seconds and frames, never a bare frame count past 1 s.
import { describe, expect, it } from 'vitest';
import { tickLabel } from '../../../src/studio/ui/panels/timeline-geometry.js';

describe('tickLabel', () => {
  it.each([
    [0, 30, '0s'],
    [15, 30, '15f'],
    [30, 30, '1s'],
    [45, 30, '1s15f'],
    [75, 30, '2s15f'],
    [50, 25, '2s'],
    [12, 24, '12f'],
  ])('frame %i at %i fps is %s', (frame, fps, label) => expect(tickLabel(frame, fps)).toBe(label));
});
