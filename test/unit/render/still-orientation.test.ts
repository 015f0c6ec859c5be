/** EXIF orientation: the turn media.rotation records, and which items are drawn turned (still-orientation.ts). */
import { describe, expect, it } from 'vitest';
import { drawnUpright, orientationTurn } from '../../../src/render/still-orientation.js';

/** The header sharp reads of a 320x180 JPEG stored with Orientation 6 (shown 180x320). */
const sideways = { width: 320, height: 180, autoOrient: { width: 180, height: 320 } };

describe('still orientation', () => {
  it('records the clockwise turn of each EXIF orientation, mirrored ones by their turn', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, undefined].map(orientationTurn)).toEqual([
      0, 0, 180, 180, 270, 90, 90, 270, 0,
    ]);
  });

  it('draws an image turned when its item has the shown size', () => {
    expect(drawnUpright({ width: 180, height: 320 }, sideways)).toBe(true);
  });

  it('draws an item imported before orientation was read as it was imported, not squeezed', () => {
    expect(drawnUpright({ width: 320, height: 180 }, sideways)).toBe(false);
  });

  it('turns an image whose item has another size still (a sequence frame refused later by its size)', () => {
    expect(drawnUpright({ width: 64, height: 48 }, sideways)).toBe(true);
  });
});
