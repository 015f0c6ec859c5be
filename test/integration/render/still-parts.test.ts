/**
 * A plate render keeps the composed pixels of rectangles whose layers draw still (still-parts.ts) and blends them
 * over each new video frame without composing them again. A kept rectangle shown when something in it changed
 * would put stale graphics into the video, so each frame of a render through one renderer (the cache in play)
 * must be byte-identical to the same frame from a fresh renderer (nothing kept): a still lower third, a layer
 * fading (only its opacity is keyframed), one changing colour in place, a dot carried half a pixel a frame by an animated null parent (its
 * rectangle stays put for frames at a time), a still logo that a solid starting mid-way covers, and a moving
 * box. Then an edit of the lower third's text, rendered by the same renderer, must show the new text.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Composition, Layer, Project } from '../../../src/engine/index.js';
import { drawsStill } from '../../../src/render/still-parts.js';
import type { FrameRenderer } from '../../../src/render/types.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';
import { Scene } from './scenes.js';

const exec = promisify(execFile);
const W = 640;
const H = 360;
const FPS = 25;
const FRAMES = 8;

/** A 48x32 PNG logo, half transparent. */
async function logoPng(dir: string): Promise<string> {
  const path = join(dir, 'logo.png');
  const background = { r: 255, g: 64, b: 160, alpha: 0.5 };
  await sharp({ create: { width: 48, height: 32, channels: 4, background } })
    .png()
    .toFile(path);
  return path;
}

async function scene(clip: string, logoFile: string): Promise<{ s: Scene; comp: string; title: string }> {
  const s = new Scene();
  const { id: comp } = await s.cmd('comp.new', {
    width: W,
    height: H,
    frameRate: FPS,
    duration: FRAMES / FPS,
  });
  const at = (layer: string, property: string, value: unknown) =>
    s.cmd('property.set', { layer, property, value });
  const { id: footage } = await s.cmd('file.import', { path: clip });
  await s.cmd('layer.addFootage', { comp, footage });
  const band = await s.cmd('layer.addSolid', { comp, color: '#10204a', width: W, height: 80 });
  await at(band.id, 'transform.position', [W / 2, 300]);
  await at(band.id, 'transform.opacity', 60);
  const title = await s.cmd('layer.addText', { comp, text: 'Still title', fontSize: 32 });
  await at(title.id, 'transform.position', [200, 310]);
  // Only its opacity keyframed: its rectangle never moves, its pixels do.
  const fade = await s.cmd('layer.addSolid', { comp, color: '#ffcc00', width: 40, height: 40 });
  await at(fade.id, 'transform.position', [560, 200]);
  await s.key(fade.id, 'transform.opacity', 0, 100);
  await s.key(fade.id, 'transform.opacity', (FRAMES - 1) / FPS, 0);
  // A still logo, and a solid over it from frame 3 on: from then on the logo's rectangle has one more layer.
  const logo = await s.cmd('layer.addSolid', { comp, color: '#ffffff', width: 60, height: 40 });
  await at(logo.id, 'transform.position', [80, 130]);
  const late = await s.cmd('layer.addSolid', { comp, color: '#ff0000', width: 30, height: 30 });
  await at(late.id, 'transform.position', [90, 124]);
  // Unmoved, its colour keyframed: its content changes, its rectangle does not.
  const tint = await s.cmd('layer.addSolid', { comp, color: '#0000ff', width: 40, height: 40 });
  await at(tint.id, 'transform.position', [450, 120]);
  await s.key(tint.id, 'solid.color', 0, '#0000ff');
  await s.key(tint.id, 'solid.color', (FRAMES - 1) / FPS, '#00ffff');
  await s.cmd('layer.setTiming', { layer: late.id, inPoint: 3 / FPS });
  // A still dot on an animated null: half a pixel a frame, so its rectangle stays put for frames at a time.
  const carrier = await s.cmd('layer.addNull', { comp });
  await s.key(carrier.id, 'transform.position', 0, [320, 180]);
  await s.key(carrier.id, 'transform.position', (FRAMES - 1) / FPS, [320 + (FRAMES - 1) / 2, 180]);
  const dot = await s.cmd('layer.addShape', {
    comp,
    shape: { type: 'ellipse', size: [30, 30] },
    fill: '#22cc88',
  });
  await s.cmd('layer.setParent', { layer: dot.id, parent: carrier.id });
  // A still image in a corner (a watermark).
  const { id: image } = await s.cmd('file.import', { path: logoFile });
  const mark = await s.cmd('layer.addFootage', { comp, footage: image });
  await at(mark.id, 'transform.position', [600, 330]);
  const box = await s.cmd('layer.addShape', {
    comp,
    shape: { type: 'rectangle', size: [60, 40] },
    fill: '#ff8800',
  });
  await s.key(box.id, 'transform.position', 0, [60, 30]);
  await s.key(box.id, 'transform.position', (FRAMES - 1) / FPS, [580, 30]);
  return { s, comp, title: title.id };
}

async function frame(renderer: FrameRenderer, doc: Project, comp: string, i: number): Promise<Buffer> {
  const buffer = new Uint8Array(W * H * 1.5);
  const out = await renderer.renderFrameI420!(doc, comp, i / FPS, { missingFootage: 'fail' }, () => ({
    buffer,
    matrix: 'smpte170m',
  }));
  expect(out.plate, 'the clip is a plate').toBe(true);
  return Buffer.from(buffer);
}

describe('still parts of a plate render', () => {
  itWithFfmpeg(
    'are the pixels a fresh renderer composes, frame after frame and after an edit',
    async () => {
      const dir = await tempDir();
      const clip = join(dir, 'clip.mp4');
      await exec('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
        ...[
          '-i',
          `testsrc2=s=${W}x${H}:r=${FPS}:d=${FRAMES / FPS}`,
          '-c:v',
          'libx264',
          '-pix_fmt',
          'yuv420p',
          clip,
        ],
      ]);
      const { s, comp, title } = await scene(clip, await logoPng(dir));
      const doc = s.doc;
      const kept = await mediaRenderer();
      const frames: Buffer[] = [];
      for (let i = 0; i < FRAMES; i++) frames.push(await frame(kept, doc, comp, i));
      for (let i = 0; i < FRAMES; i++) {
        const fresh = await mediaRenderer();
        const want = await frame(fresh, doc, comp, i);
        fresh.dispose();
        expect(Buffer.compare(frames[i]!, want), `frame ${i}`).toBe(0);
      }
      // The frames differ from each other (the test is not comparing a frozen picture with itself).
      expect(Buffer.compare(frames[0]!, frames[FRAMES - 1]!)).not.toBe(0);

      await s.cmd('property.set', { layer: title, property: 'text.text', value: 'Edited title' });
      const comp2 = (s.doc.items.find((i) => i.type === 'composition') as Composition).id;
      const edited = await frame(kept, s.doc, comp2, 2);
      const fresh = await mediaRenderer();
      expect(Buffer.compare(edited, await frame(fresh, s.doc, comp2, 2))).toBe(0);
      expect(Buffer.compare(edited, frames[2]!)).not.toBe(0);
    },
    120_000,
  );

  it('are only those of layers that draw the same at every time', async () => {
    const dir = await tempDir();
    const s = new Scene();
    // First: a new composition becomes the active one, which the edits below address.
    const { id: inner } = await s.cmd('comp.new', { width: 10, height: 10, duration: 1 });
    const { id: comp } = await s.cmd('comp.new', { width: W, height: H, duration: 2 });
    const { id: image } = await s.cmd('file.import', { path: await logoPng(dir) });
    const ids = {
      solid: (await s.cmd('layer.addSolid', { comp, color: '#ffffff', width: 10, height: 10 })).id,
      text: (await s.cmd('layer.addText', { comp, text: 'Title' })).id,
      image: (await s.cmd('layer.addFootage', { comp, footage: image })).id,
      moving: (await s.cmd('layer.addSolid', { comp, color: '#ffffff', width: 10, height: 10 })).id,
      tinted: (await s.cmd('layer.addSolid', { comp, color: '#ffffff', width: 10, height: 10 })).id,
      blurring: (await s.cmd('layer.addSolid', { comp, color: '#ffffff', width: 10, height: 10 })).id,
      carried: (await s.cmd('layer.addSolid', { comp, color: '#ffffff', width: 10, height: 10 })).id,
      matted: (await s.cmd('layer.addSolid', { comp, color: '#ffffff', width: 10, height: 10 })).id,
      nested: '',
    };
    ids.nested = (await s.cmd('layer.addPrecomp', { comp, source: inner })).id;
    const carrier = await s.cmd('layer.addNull', { comp });
    await s.key(carrier.id, 'transform.rotation', 0, 0);
    await s.key(carrier.id, 'transform.rotation', 1, 90);
    await s.cmd('layer.setParent', { layer: ids.carried, parent: carrier.id });
    await s.key(ids.moving, 'transform.scale', 0, [100, 100]);
    await s.key(ids.moving, 'transform.scale', 1, [200, 200]);
    await s.key(ids.tinted, 'solid.color', 0, '#ffffff');
    await s.key(ids.tinted, 'solid.color', 1, '#000000');
    await s.cmd('effect.add', { layer: ids.blurring, effect: 'gaussianBlur', params: { radius: 2 } });
    await s.key(ids.blurring, 'effects.gaussianBlur.radius', 1, 8);
    await s.cmd('layer.setTrackMatte', { layer: ids.matted, matte: ids.solid, mode: 'alpha' });
    const doc = s.doc;
    const c = doc.items.find((i): i is Composition => i.type === 'composition' && i.id === comp)!;
    const still = (id: string) =>
      drawsStill(
        doc,
        c,
        c.layers.find((l: Layer) => l.id === id)!,
      );
    expect(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, still(id)]))).toEqual({
      solid: true,
      text: true,
      image: true,
      moving: false,
      tinted: false,
      blurring: false,
      carried: false,
      matted: false,
      nested: false,
    });
  });
});
