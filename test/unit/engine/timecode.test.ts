import { describe, expect, it } from 'vitest';
import { timecode } from '../../../src/engine/timecode.js';

describe('timecode', () => {
  it('counts HH:MM:SS:FF at the composition rate', () => {
    expect(timecode(30, 0)).toBe('00:00:00:00');
    expect(timecode(30, 42)).toBe('00:00:01:12');
    expect(timecode(25, 25 * 3661 + 24)).toBe('01:01:01:24');
  });

  it('counts whole frames of the rounded rate for fractional rates (non-drop-frame)', () => {
    expect(timecode(29.97, 30)).toBe('00:00:01:00');
    expect(timecode(23.976, 47)).toBe('00:00:01:23');
  });
});
