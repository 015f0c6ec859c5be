/**
 * A key or in point set on a frame takes effect on that frame, also in a layer that starts later and inside a
 * precomp. Layer time is comp time minus startTime, a subtraction that lands a hair short of the frame
 * (0.3 - 0.1 = 0.19999999999999998): until 2026-12-07 a hold key at layer time 0.2 in a layer starting at 0.1
 * (frame 9 at 30 fps) changed the picture on frame 10, and so did a precomp's layer with its in point there.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createFrameRenderer } from '../../../src/render/index.js';
import { Scene } from './scenes.js';

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
const FPS = 30;

/** The red channel of the frame's centre pixel at frame `n` of `comp`. */
async function red(s: Scene, comp: string, n: number): Promise<number> {
  const frame = await renderer.renderFrame(s.doc, comp, n / FPS, { missingFootage: 'fail' });
  return frame.rgba[(frame.width * (frame.height >> 1) + (frame.width >> 1)) * 4]!;
}

describe('keys and in points on a frame, at a layer time with a start time', () => {
  it('a hold key at layer time 0.2 in a layer starting at 0.1 shows on frame 9', async () => {
    const s = new Scene();
    const { id: comp } = await s.cmd('comp.new', { width: 8, height: 8, frameRate: FPS, duration: 1 });
    const { id } = await s.cmd('layer.addSolid', { color: '#ffffff' });
    await s.cmd('layer.setTiming', { layer: id, inPoint: 0, startTime: 0.1, outPoint: 1 });
    await s.key(id, 'transform.opacity', 0, 0, { interpolation: 'hold' });
    await s.key(id, 'transform.opacity', 0.2, 100, { interpolation: 'hold' });
    expect([await red(s, comp, 8), await red(s, comp, 9), await red(s, comp, 10)]).toEqual([0, 255, 255]);
  });

  it("a precomp's layer with its in point at 0.2, the precomp starting at 0.1, shows from frame 9", async () => {
    const s = new Scene();
    const { id: inner } = await s.cmd('comp.new', { width: 8, height: 8, frameRate: FPS, duration: 1 });
    const { id } = await s.cmd('layer.addSolid', { color: '#ffffff' });
    await s.cmd('layer.setTiming', { layer: id, inPoint: 0.2 });
    const { id: main } = await s.cmd('comp.new', { width: 8, height: 8, frameRate: FPS, duration: 1 });
    const pre = await s.cmd('layer.addPrecomp', { source: inner });
    await s.cmd('layer.setTiming', { layer: pre.id, startTime: 0.1 });
    expect([await red(s, main, 8), await red(s, main, 9), await red(s, main, 10)]).toEqual([0, 255, 255]);
  });
});
