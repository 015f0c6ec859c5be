/**
 * A plate render reads back and blends only the rectangles graphicsRects says the layers above the plate can
 * have painted. Were a rectangle short by one pixel, graphics would silently go missing from the video, so this
 * renders each scene's frame in full (transparent, as the plate path composes it) and checks that every pixel
 * with any alpha lies inside the rectangles: the golden fixtures (every layer kind, blend modes, track mattes,
 * every effect, animation and parenting) and a scene of hard cases (combining marks stacked high above a line,
 * sharp stroked stars, rotated, fractional, scaled-up and off-frame layers, a drop shadow thrown far).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProject } from '../../../src/engine/project-file.js';
import type { Composition, FootageItem, Project } from '../../../src/engine/index.js';
import { createFrameRenderer } from '../../../src/render/index.js';
import { graphicsRects, paintedRects, type FrameRect } from '../../../src/render/graphics-rects.js';
import { yuvPlate } from '../../../src/render/plate.js';
import { overPlate, plateTransform } from '../../../src/render/yuv/over-plate.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Scene } from './scenes.js';

const dir = fileURLToPath(new URL('../../../fixtures/golden/', import.meta.url));
const exec = promisify(execFile);
const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
afterAll(() => renderer.dispose());
const measure = createCanvas(1, 1).getContext('2d');

function activeComp(doc: Project): Composition {
  return doc.items.find((i): i is Composition => i.type === 'composition' && i.id === doc.activeComp)!;
}

/** Pixels with alpha outside `rects`, and how many pixels have alpha at all. */
async function check(
  doc: Project,
  time: number,
): Promise<{ outside: number; painted: number; rects: FrameRect[] }> {
  const comp = activeComp(doc);
  const rects = paintedRects(
    { doc, measure },
    { comp, t: time, width: comp.width, height: comp.height, hidden: undefined },
  );
  expect(rects, 'a scene without adjustment layers has known rectangles').not.toBeNull();
  const frame = await renderer.renderFrame(doc, comp.id, time, { transparent: true, missingFootage: 'fail' });
  let outside = 0;
  let painted = 0;
  for (let y = 0; y < frame.height; y++)
    for (let x = 0; x < frame.width; x++) {
      if (frame.rgba[(y * frame.width + x) * 4 + 3] === 0) continue;
      painted++;
      const inside = rects!.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height);
      if (!inside) outside++;
    }
  for (const r of rects!) {
    expect([r.x % 2, r.y % 2, r.width % 2, r.height % 2]).toEqual([0, 0, 0, 0]);
    expect(r.x >= 0 && r.y >= 0 && r.x + r.width <= comp.width && r.y + r.height <= comp.height).toBe(true);
  }
  for (const [i, a] of rects!.entries())
    for (const b of rects!.slice(i + 1)) {
      const overlap =
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlap, 'rectangles are disjoint: a pixel is blended once').toBe(false);
    }
  return { outside, painted, rects: rects! };
}

/**
 * Hard cases, 640x360: combining marks stacked high above a line, a sharp stroked star, stroked, tracked and
 * scaled text, a tiny solid scaled up with a shadow, a blur half off the frame, a turned square off a corner.
 */
async function hardScene(): Promise<Scene> {
  const s = new Scene();
  await s.cmd('comp.new', { name: 'Hard', width: 640, height: 360, duration: 2 });
  const at = (layer: string, property: string, value: unknown) =>
    s.cmd('property.set', { layer, property, value });
  // Combining marks (diaereses, which the bundled font has) stacked far above the line box.
  const zalgo = await s.cmd('layer.addText', {
    text: 'Z' + '\u0308'.repeat(12) + 'a',
    fontSize: 40,
  });
  await at(zalgo.id, 'transform.position', [80.3, 180.7]);
  // A star with sharp points and a wide mitred stroke, turned.
  const star = await s.cmd('layer.addShape', {
    shape: { type: 'polygon', points: 5, outerRadius: 40, innerRadius: 8 },
    fill: null,
    strokeColor: '#ff0000',
    strokeWidth: 9,
  });
  await at(star.id, 'transform.position', [220.5, 90.25]);
  await at(star.id, 'transform.rotation', 17);
  // Filled and stroked text (through its own surface), right-aligned, two lines, wide tracking, scaled.
  const text = await s.cmd('layer.addText', {
    text: 'Wide\nlines',
    fontSize: 30,
    strokeColor: '#0000ff',
    strokeWidth: 4,
    align: 'right',
    tracking: 300,
  });
  await at(text.id, 'transform.position', [600, 60]);
  await at(text.id, 'transform.scale', [140, 90]);
  // A tiny solid with a drop shadow thrown far, scaled up 12 times (its surface is capped at 8 px a unit,
  // so its pixels are smoothed when drawn larger).
  const dot = await s.cmd('layer.addSolid', { color: '#00ff00', width: 4, height: 4 });
  await at(dot.id, 'transform.position', [420, 250]);
  await at(dot.id, 'transform.scale', [1200, 1200]);
  await s.cmd('effect.add', {
    layer: dot.id,
    effect: 'dropShadow',
    params: { distance: 1, softness: 0.5 },
  });
  // A blurred ellipse half off the frame's left edge, and a rectangle off its bottom right corner.
  const blob = await s.cmd('layer.addShape', {
    shape: { type: 'ellipse', size: [90, 60] },
    fill: '#ffff00',
  });
  await at(blob.id, 'transform.position', [5, 320]);
  await s.cmd('effect.add', { layer: blob.id, effect: 'gaussianBlur', params: { radius: 10 } });
  const corner = await s.cmd('layer.addSolid', { color: '#ff00ff', width: 50, height: 50 });
  await at(corner.id, 'transform.position', [635, 357]);
  await at(corner.id, 'transform.rotation', 45);
  return s;
}

/** The golden fixtures whose layers are not adjustment layers (those need the whole frame below them). */
const GOLDEN: [string, number[]][] = [
  ['mattes', [0]],
  ['effects', [0, 1]],
  ['animation', [0, 0.5, 1.5, 2.2, 3.9]],
  ['blend', [0]],
];

describe('the rectangles a plate render reads back', () => {
  for (const [name, times] of GOLDEN)
    it(`hold every painted pixel of the ${name} fixture`, async () => {
      const path = join(dir, `${name}.ecproj`);
      const doc = parseProject(await readFile(path, 'utf8'), path);
      for (const time of times) {
        const { outside, painted } = await check(doc, time);
        expect(painted).toBeGreaterThan(0);
        expect(outside, `${name}@${time}`).toBe(0);
      }
    });

  it('read the whole frame when an adjustment layer is above (the kinds fixture)', async () => {
    const path = join(dir, 'kinds.ecproj');
    const doc = parseProject(await readFile(path, 'utf8'), path);
    const comp = activeComp(doc);
    expect(comp.layers.some((l) => l.source.kind === 'adjustment')).toBe(true);
    expect(
      graphicsRects(
        { doc, measure },
        { comp, t: 0, width: comp.width, height: comp.height, hidden: undefined },
      ),
    ).toBeNull();
  });

  it('hold every painted pixel of hard cases, and stay small around small layers', async () => {
    const s = await hardScene();
    const { outside, painted, rects } = await check(s.doc, 0);
    expect(painted).toBeGreaterThan(1000);
    expect(outside).toBe(0);
    // Not the whole frame in disguise: the layers are small, and so is what is read.
    const area = rects.reduce((n, r) => n + r.width * r.height, 0);
    expect(area).toBeLessThan(0.5 * 640 * 360);
    const comp = activeComp(s.doc);
    expect(
      graphicsRects({ doc: s.doc, measure }, { comp, t: 0, width: 640, height: 360, hidden: undefined }),
    ).toEqual(rects);
  });

  itWithFfmpeg(
    'give a plate render the very pixels of the whole frame: graphics composed in parts, shifted by whole pixels',
    async () => {
      const dir = await tempDir();
      const clip = join(dir, 'plate.mp4');
      await exec('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=25:d=0.4'],
        ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip],
      ]);
      const s = await hardScene();
      const comp = activeComp(s.doc);
      const { id: footage } = await s.cmd('file.import', { path: clip });
      const bottom = await s.cmd('layer.addFootage', { comp: comp.id, footage });
      await s.cmd('layer.move', { layer: bottom.id, index: activeComp(s.doc).layers.length - 1 });
      const doc = s.doc;
      const renderer = await mediaRenderer();
      const frameBytes = 640 * 360 * 1.5;
      const got = new Uint8Array(frameBytes);
      const out = await renderer.renderFrameI420!(doc, comp.id, 0, { missingFootage: 'fail' }, () => ({
        buffer: got,
        matrix: 'bt709',
      }));
      expect(out.plate).toBe(true);
      const hidden = activeComp(doc).layers.at(-1);
      const rects = graphicsRects(
        { doc, measure },
        { comp: activeComp(doc), t: 0, width: 640, height: 360, hidden },
      );
      expect(rects!.length).toBeGreaterThan(1);
      // The same frame the long way: the graphics composed whole (the clip's layer off), over the clip's first
      // frame as ffmpeg decodes it.
      await s.cmd('layer.setEnabled', { layer: bottom.id, enabled: false });
      const graphics = await renderer.renderFrame(s.doc, comp.id, 0, {
        transparent: true,
        missingFootage: 'fail',
      });
      expect(graphics.premultiplied).toBe(true);
      const { stdout } = await exec(
        'ffmpeg',
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-i',
          clip,
          '-frames:v',
          '1',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'yuv420p',
          'pipe:1',
        ],
        { encoding: 'buffer', maxBuffer: 1 << 24 },
      );
      const item = doc.items.find((i): i is FootageItem => i.type === 'footage')!;
      const want = new Uint8Array(frameBytes);
      const whole = [{ x: 0, y: 0, width: 640, height: 360, rgba: graphics.rgba }];
      overPlate(
        new Uint8Array(stdout),
        whole,
        640,
        360,
        plateTransform(yuvPlate(item)!, 'bt709'),
        'bt709',
        want,
      );
      expect(Buffer.compare(Buffer.from(got), Buffer.from(want))).toBe(0);
    },
  );
});
