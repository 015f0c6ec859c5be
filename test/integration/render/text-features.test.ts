/**
 * OpenType features in text layers, as browsers apply them by default: golden frames of "1920 x 1080" and
 * "office" in Inter (references in test/golden/text, written by make-text-goldens.ts), and proof that each
 * switch changes the glyphs: Inter's contextual alternates draw "1920 x 1080" with the very multiplication sign
 * of "1920 × 1080", and with `contextualAlternates: false` a plain x; kerning off moves "AVA To".
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createFrameRenderer } from '../../../src/render/index.js';
import { compareGolden } from './golden-compare.js';
import {
  renderTextPng,
  TEXT_GOLDEN_CASES,
  TEXT_GOLDEN_DIR,
  type TextFeatureSwitches,
} from './text-features-scenes.js';

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
afterAll(() => renderer.dispose());

/** How many pixels of two same-sized PNGs differ by more than 2 levels in some channel. */
async function differingPixels(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(png).ensureAlpha().raw().toBuffer()));
  expect(x!.length).toBe(y!.length);
  let n = 0;
  for (let i = 0; i < x!.length; i += 4) {
    if ([0, 1, 2, 3].some((c) => Math.abs(x![i + c]! - y![i + c]!) > 2)) n++;
  }
  return n;
}

const render = (text: string, switches: TextFeatureSwitches = {}) => renderTextPng(renderer, text, switches);

describe('text features', () => {
  for (const c of TEXT_GOLDEN_CASES) {
    it(`"${c.text}" with the default features matches its reference`, async () => {
      const ref = await readFile(join(TEXT_GOLDEN_DIR, `${c.name}.png`));
      const result = await compareGolden(`text-${c.name}`, await render(c.text), ref);
      expect(result.ok, `${c.name}: ${result.detail} (see test-output/golden/)`).toBe(true);
    });
  }

  it('draws "1920 x 1080" with the multiplication sign (contextual alternates), a plain x when switched off', async () => {
    const withFeatures = await render('1920 x 1080');
    expect(await differingPixels(withFeatures, await render('1920 \u00d7 1080'))).toBe(0);
    const off = await render('1920 x 1080', { contextualAlternates: false });
    expect(await differingPixels(withFeatures, off)).toBeGreaterThan(200);
  });

  it('kerns by default and not when kerning is off', async () => {
    const kerned = await render('AVA To');
    expect(await differingPixels(kerned, await render('AVA To', { kerning: false }))).toBeGreaterThan(200);
  });

  it('"office" in Inter: no ffi ligature either way, since the font has none (no liga feature)', async () => {
    // Browsers show the same: Inter's ligature-free design. The switch itself is proven on a font with
    // ligatures in test/unit/render/text-features.test.ts.
    expect(await differingPixels(await render('office'), await render('office', { ligatures: false }))).toBe(
      0,
    );
  });
});
