/** Effects with keyframed params, blending over the empty comp, the encoders, and the golden comparator. */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createFrameRenderer,
  encodeStill,
  straightRgba,
  type RenderedFrame,
} from '../../../src/render/index.js';
import { Scene } from '../../integration/render/scenes.js';
import { compareGolden, outputDir } from '../../integration/render/golden-compare.js';
import { tempDir } from '../../helpers/tmp.js';

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
afterAll(() => renderer.dispose());

function px(f: RenderedFrame, x: number, y: number): number[] {
  const i = (y * f.width + x) * 4;
  return [...f.rgba.subarray(i, i + 4)];
}

async function comp(bg: string): Promise<Scene> {
  const s = new Scene();
  await s.cmd('comp.new', { width: 100, height: 60, duration: 2, backgroundColor: bg });
  return s;
}

const render = (s: Scene, t = 0, transparent = false) =>
  renderer.renderFrame(s.doc, s.doc.activeComp!, t, { missingFootage: 'fail', transparent });

describe('effects', () => {
  it('a keyframed blur radius is sharp at 0 and soft later', async () => {
    const s = await comp('#000000');
    const sq = await s.cmd('layer.addSolid', { color: '#ffffff', width: 50, height: 60 });
    await s.cmd('property.set', { layer: sq.id, property: 'transform.position', value: [25, 30] });
    const fx = await s.cmd('effect.add', { layer: sq.id, effect: 'gaussianBlur', params: { radius: 0 } });
    await s.key(sq.id, `effects.${fx.id}.radius`, 0, 0);
    await s.key(sq.id, `effects.${fx.id}.radius`, 1, 20);
    const sharpFrame = await render(s, 0);
    expect(px(sharpFrame, 48, 30)).toEqual([255, 255, 255, 255]);
    expect(px(sharpFrame, 52, 30)).toEqual([0, 0, 0, 255]);
    const soft = await render(s, 1);
    expect(px(soft, 48, 30)[0]).toBeLessThan(230);
    expect(px(soft, 52, 30)[0]).toBeGreaterThan(25);
  });

  it('fill replaces colour and keeps alpha; invert inverts', async () => {
    const s = await comp('#000000');
    const sq = await s.cmd('layer.addSolid', { color: '#336699' });
    await s.cmd('effect.add', { layer: sq.id, effect: 'fill', params: { color: '#00ff00', opacity: 100 } });
    expect(px(await render(s), 50, 30)).toEqual([0, 255, 0, 255]);
    await s.cmd('effect.add', { layer: sq.id, effect: 'invert' });
    expect(px(await render(s), 50, 30)).toEqual([255, 0, 255, 255]);
  });

  it('a drop shadow appears down-right at 135 degrees', async () => {
    const s = await comp('#ffffff');
    const sq = await s.cmd('layer.addSolid', { color: '#ff0000', width: 20, height: 20 });
    await s.cmd('effect.add', {
      layer: sq.id,
      effect: 'dropShadow',
      params: { distance: 10, softness: 0, opacity: 100, color: '#000000' },
    });
    const f = await render(s);
    // Square spans 40..60 x 20..40; the shadow is offset by ~7 px right and down.
    expect(px(f, 64, 44)).toEqual([0, 0, 0, 255]);
    expect(px(f, 36, 16)).toEqual([255, 255, 255, 255]);
    expect(px(f, 50, 30)).toEqual([255, 0, 0, 255]);
  });
});

describe('blending over the empty comp', () => {
  it('a multiply layer with nothing below shows its own colour, then the background goes under', async () => {
    const s = await comp('#0000ff');
    const red = await s.cmd('layer.addSolid', { color: '#ff0000', width: 50, height: 60 });
    await s.cmd('property.set', { layer: red.id, property: 'transform.position', value: [25, 30] });
    await s.cmd('layer.setBlendMode', { layer: red.id, mode: 'multiply' });
    const f = await render(s);
    expect(px(f, 10, 30)).toEqual([255, 0, 0, 255]);
    expect(px(f, 90, 30)).toEqual([0, 0, 255, 255]);
  });
});

describe('encoders', () => {
  const frame = {
    width: 2,
    height: 1,
    rgba: Buffer.from([128, 0, 0, 128, 0, 0, 0, 0]),
    premultiplied: true,
  };

  it('straightRgba un-premultiplies', () => {
    expect([...straightRgba(frame)]).toEqual([255, 0, 0, 128, 0, 0, 0, 0]);
  });

  it('encodes png, jpeg and webp', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const meta = await sharp(await encodeStill(frame, format)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 2, 1]);
    }
  });
});

describe('golden comparator', () => {
  it('fails on a visibly different frame and writes a diff image', async () => {
    const make = (v: number) =>
      sharp(Buffer.alloc(20 * 10 * 4, v), { raw: { width: 20, height: 10, channels: 4 } })
        .png()
        .toBuffer();
    const same = await compareGolden('selftest-same', await make(100), await make(101));
    expect(same.ok).toBe(true);
    const diff = await compareGolden('selftest-diff', await make(100), await make(110));
    expect(diff.ok).toBe(false);
    expect(existsSync(join(outputDir, 'selftest-diff.diff.png'))).toBe(true);
  });
});

describe('footage decoding', () => {
  it('decodes greyscale 16-bit PNGs and JPEGs to the right colours', async () => {
    const dir = await tempDir();
    const grey16 = join(dir, 'grey16.png');
    await sharp(Buffer.alloc(8 * 8, 200), { raw: { width: 8, height: 8, channels: 1 } })
      .png()
      .toColourspace('grey16')
      .toFile(grey16);
    const jpeg = join(dir, 'red.jpg');
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
      .jpeg({ quality: 100 })
      .toFile(jpeg);
    for (const [path, expected] of [
      [grey16, [200, 200, 200, 255]],
      [jpeg, [254, 0, 0, 255]],
    ] as const) {
      const s = await comp('#000000');
      const f = await s.cmd('file.import', { path });
      const layer = await s.cmd('layer.addFootage', { footage: f.id });
      await s.cmd('property.set', { layer: layer.id, property: 'transform.scale', value: [2000, 2000] });
      const frame = await render(s);
      expect(frame.warnings).toEqual([]);
      px(frame, 50, 30).forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThanOrEqual(2));
    }
  });
});
