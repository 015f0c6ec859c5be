/**
 * Writes the reference PNGs of the text-features golden test (test/golden/text/), rendered with the features
 * on, as browsers render them:
 *   npx tsx test/integration/render/make-text-goldens.ts
 * Look at them before committing: "1920 × 1080" must show the multiplication sign.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFrameRenderer } from '../../../src/render/index.js';
import { renderTextPng, TEXT_GOLDEN_CASES, TEXT_GOLDEN_DIR } from './text-features-scenes.js';

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
try {
  await mkdir(TEXT_GOLDEN_DIR, { recursive: true });
  for (const c of TEXT_GOLDEN_CASES)
    await writeFile(join(TEXT_GOLDEN_DIR, `${c.name}.png`), await renderTextPng(renderer, c.text, {}, 9));
} finally {
  await renderer.dispose();
}
