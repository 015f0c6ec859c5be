// The canvas settings of the text feature switches reach the shaper: with a font that has standard ligatures
// (DejaVu Serif, Debian's fonts-dejavu-core; the bundled Inter has none), "fi" with ligatures on is drawn as the
// fi ligature itself (U+FB01) and with them off as two letters. Skipped where that font is not installed.
import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { setFont, textFeatures } from '../../../src/render/text.js';

const DEJAVU_SERIF = '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf';
const ALL_ON = { kerning: true, ligatures: true, contextualAlternates: true };

function pixels(text: string, ligatures: boolean): Buffer {
  const canvas = createCanvas(200, 80);
  const ctx = canvas.getContext('2d');
  setFont(ctx, {
    font: '48px "Ligature Test Serif"',
    letterSpacing: '0px',
    features: textFeatures({ ...ALL_ON, ligatures }),
  });
  ctx.fillText(text, 10, 60);
  return Buffer.from(ctx.getImageData(0, 0, 200, 80).data);
}

describe('text feature settings', () => {
  it('map the switches to canvas settings', () => {
    expect(textFeatures(ALL_ON)).toEqual({
      fontKerning: 'normal',
      fontVariantLigatures: 'common-ligatures contextual',
    });
    expect(textFeatures({ kerning: false, ligatures: false, contextualAlternates: false })).toEqual({
      fontKerning: 'none',
      fontVariantLigatures: 'no-common-ligatures no-contextual',
    });
  });

  it.skipIf(!existsSync(DEJAVU_SERIF))(
    'draw "fi" as a ligature with ligatures on, as two letters off',
    () => {
      const key = GlobalFonts.registerFromPath(DEJAVU_SERIF, 'Ligature Test Serif');
      expect(key).toBeTruthy();
      try {
        const ligature = pixels('\ufb01', false);
        expect(pixels('fi', true).equals(ligature)).toBe(true);
        expect(pixels('fi', false).equals(ligature)).toBe(false);
      } finally {
        // Registered fonts may be shared with other test threads: leave only the bundled ones.
        GlobalFonts.remove(key!);
      }
    },
  );
});
