/**
 * Text whose glyphs reach past its layout box (combining marks stacked above a line) is drawn whole, stroked or
 * not: a stroked text is drawn through a layer surface sized from its bounds, which once stopped at the layout
 * box plus a quarter em and cut the marks off.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createFrameRenderer } from '../../../src/render/index.js';
import { Scene } from './scenes.js';

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
afterAll(() => renderer.dispose());

/** The topmost row with any alpha of a 200x200 frame of one text layer (centred), or -1. */
async function topRow(params: Record<string, unknown>): Promise<number> {
  const s = new Scene();
  const comp = await s.cmd('comp.new', { name: 'Ink', width: 200, height: 200, duration: 1 });
  await s.cmd('layer.addText', { fontSize: 20, ...params });
  const frame = await renderer.renderFrame(s.doc, comp.id, 0, { transparent: true, missingFootage: 'fail' });
  expect(frame.warnings).toEqual([]);
  for (let y = 0; y < frame.height; y++)
    for (let x = 0; x < frame.width; x++) if (frame.rgba[(y * frame.width + x) * 4 + 3]! > 0) return y;
  return -1;
}

describe('text ink past the layout box', () => {
  it('draws stacked marks whole with a stroke, as without one (the stroke adding its width)', async () => {
    const text = 'a' + '\u0308'.repeat(12);
    const plain = await topRow({ text });
    const stroked = await topRow({ text, strokeColor: '#ff0000', strokeWidth: 2 });
    const bare = await topRow({ text: 'a' });
    // The marks reach far above the letter (the layout box's margin is a quarter em: 5 px here).
    expect(bare - plain).toBeGreaterThan(30);
    // The stroke shows 2 px outside the outline: the stroked marks reach 2 px higher, give or take antialiasing.
    expect(Math.abs(plain - 2 - stroked)).toBeLessThanOrEqual(1);
  });
});
