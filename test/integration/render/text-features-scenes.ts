/**
 * Text rendered with and without the OpenType features browsers apply by default (kerning, standard ligatures,
 * contextual alternates), built through engine commands. Shared by the golden test (text-features.test.ts) and
 * the script that writes its references (make-text-goldens.ts).
 */
import { fileURLToPath } from 'node:url';
import { encodeStill, type FrameRenderer } from '../../../src/render/index.js';
import { Scene } from './scenes.js';

/** Where the reference PNGs live, one per case: `<name>.png`. */
export const TEXT_GOLDEN_DIR = fileURLToPath(new URL('../../golden/text/', import.meta.url));

export interface TextFeatureSwitches {
  kerning?: boolean;
  ligatures?: boolean;
  contextualAlternates?: boolean;
}

/** The cases with references: Inter's calt turns " x " between numbers into "×"; "office" (Inter has no ffi). */
export const TEXT_GOLDEN_CASES = [
  { name: 'dimensions', text: '1920 x 1080' },
  { name: 'office', text: 'office' },
] as const;

/** A 640x160 comp, dark background, `text` in Inter Regular 72 px, white, centred, with `switches`. */
export async function textScene(text: string, switches: TextFeatureSwitches = {}): Promise<Scene> {
  const s = new Scene();
  await s.cmd('comp.new', { name: 'Text', width: 640, height: 160, duration: 1, backgroundColor: '#202028' });
  await s.cmd('layer.addText', { text, fontSize: 72, fill: '#ffffff', ...switches });
  return s;
}

/** Renders frame 0 of `textScene(text, switches)` to PNG (zlib `level`). */
export async function renderTextPng(
  renderer: FrameRenderer,
  text: string,
  switches: TextFeatureSwitches = {},
  level = 1,
): Promise<Buffer> {
  const { doc } = await textScene(text, switches);
  const frame = await renderer.renderFrame(doc, doc.activeComp!, 0, {
    transparent: false,
    missingFootage: 'fail',
  });
  return encodeStill(frame, 'png', { pngLevel: level });
}
