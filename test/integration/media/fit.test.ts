/**
 * A landscape clip fitted into a vertical composition, read back by pixels: contain leaves bars above and below,
 * cover fills the frame and crops the sides (its blue left band goes off screen), stretch fills it with the band
 * kept; layer.addFootage's fit does the same in one step, and refuses a sound-only file leaving no layer.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Composition } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

const quiet = ['-hide_banner', '-loglevel', 'error'];

async function setup() {
  const dir = await tempDir();
  const clip = join(dir, 'wide.mp4');
  // 64x48 red, a blue band down the left 8 px.
  execFileSync('ffmpeg', [
    ...quiet,
    ...['-f', 'lavfi', '-i', 'color=red:s=64x48:r=25:d=1,drawbox=x=0:y=0:w=8:h=48:color=blue:t=fill'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv444p', clip],
  ]);
  const tone = join(dir, 'tone.wav');
  execFileSync('ffmpeg', [...quiet, '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', tone]);
  const engine = newEngine();
  const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
    width: 48,
    height: 64,
    frameRate: 25,
    duration: 1,
  });
  const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
  const { id: sound } = await run<{ id: string }>(engine, 'file.import', { path: tone });
  const renderer = await mediaRenderer();
  const frame = async () => {
    const f = await renderer.renderFrame(engine.document, comp, 0, { missingFootage: 'fail' });
    return (x: number, y: number) => [...f.rgba.subarray((y * 48 + x) * 4, (y * 48 + x) * 4 + 4)];
  };
  const layers = () => (engine.document.items.find((i) => i.id === comp) as Composition).layers;
  return { engine, comp, footage, sound, frame, layers };
}

const isRed = (p: number[]) => p[0]! > 200 && p[2]! < 60 && p[3] === 255;
const isBlue = (p: number[]) => p[2]! > 200 && p[0]! < 60 && p[3] === 255;
const isEmpty = (p: number[]) => p[3] === 0 || (p[0]! < 10 && p[1]! < 10 && p[2]! < 10);

describeWithFfmpeg('fitting footage to the composition', () => {
  itWithFfmpeg('contain, cover and stretch show the clip where each mode puts it', async () => {
    const { engine, footage, frame } = await setup();
    const { id } = await run<{ id: string }>(engine, 'layer.addFootage', { footage });
    // Unfitted: 64x48 centred in 48x64, so the band (x -8..0) is off the left edge.
    let px = await frame();
    expect(isEmpty(px(24, 4))).toBe(true);

    await run(engine, 'layer.fit', { layer: id, mode: 'contain' });
    px = await frame();
    // 48x36, rows 14 to 50: bars above and below, the band (6 px) at the left.
    expect(isEmpty(px(24, 6))).toBe(true);
    expect(isEmpty(px(24, 58))).toBe(true);
    expect(isRed(px(24, 32))).toBe(true);
    expect(isBlue(px(2, 32))).toBe(true);

    await run(engine, 'layer.fit', { layer: id, mode: 'cover' });
    px = await frame();
    // 85.3x64 from x -18.7: every corner is the clip's, and the band is cropped away.
    for (const [x, y] of [
      [1, 1],
      [46, 1],
      [1, 62],
      [46, 62],
    ] as const)
      expect(isRed(px(x, y)), `${x},${y}`).toBe(true);

    await run(engine, 'layer.fit', { layer: id, mode: 'stretch' });
    px = await frame();
    expect(isBlue(px(2, 2))).toBe(true);
    expect(isRed(px(46, 62))).toBe(true);
  });

  itWithFfmpeg("layer.addFootage's fit places the layer in the same step", async () => {
    const { engine, footage, frame, layers } = await setup();
    const r = await run<{ id: string; scale: number[] }>(engine, 'layer.addFootage', {
      footage,
      fit: 'cover',
    });
    expect(r.scale).toEqual([133.333333, 133.333333]);
    const px = await frame();
    expect(isRed(px(1, 1))).toBe(true);
    expect(isRed(px(46, 62))).toBe(true);
    await run(engine, 'edit.undo');
    expect(layers()).toHaveLength(0);
  });

  itWithFfmpeg('a sound-only file is refused a fit, and no layer is left behind', async () => {
    const { engine, sound, layers } = await setup();
    const r = await engine.execute('layer.addFootage', { footage: sound, fit: 'contain' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('bad_argument');
    expect(!r.ok && r.error.message).toContain('sound only');
    expect(layers()).toHaveLength(0);
  });
});
