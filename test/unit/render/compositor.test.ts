/** Exact pixel checks on simple scenes: known colours for opacity, multiply, keyframes, mattes, alpha. */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createFrameRenderer, encodeStill, type RenderedFrame } from '../../../src/render/index.js';
import { Scene } from '../../integration/render/scenes.js';

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
afterAll(() => renderer.dispose());

function px(f: RenderedFrame, x: number, y: number): number[] {
  const i = (y * f.width + x) * 4;
  return [...f.rgba.subarray(i, i + 4)];
}

function near(actual: number[], expected: number[], tol = 1): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) =>
    expect(Math.abs(v - expected[i]!), `channel ${i}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tol),
  );
}

async function scene(bg = '#0000ff'): Promise<Scene> {
  const s = new Scene();
  await s.cmd('comp.new', {
    name: 'T',
    width: 100,
    height: 60,
    duration: 4,
    frameRate: 10,
    backgroundColor: bg,
  });
  return s;
}

const render = (s: Scene, t = 0, transparent = false) =>
  renderer.renderFrame(s.doc, s.doc.activeComp!, t, { missingFootage: 'fail', transparent });

describe('compositor pixels', () => {
  it('a 50% opaque red solid over blue gives (127.5, 0, 127.5)', async () => {
    const s = await scene();
    const red = await s.cmd('layer.addSolid', { color: '#ff0000' });
    await s.cmd('property.set', { layer: red.id, property: 'transform.opacity', value: 50 });
    const f = await render(s);
    expect(f.premultiplied).toBe(false);
    near(px(f, 50, 30), [128, 0, 128, 255]);
  });

  it('multiply of #808080 over #ff8040 gives (128, 64, 32)', async () => {
    const s = await scene('#ff8040');
    await s.cmd('layer.addSolid', { color: '#ff8040', name: 'Base' });
    const grey = await s.cmd('layer.addSolid', { color: '#808080', width: 50, height: 60 });
    await s.cmd('property.set', { layer: grey.id, property: 'transform.position', value: [25, 30] });
    await s.cmd('layer.setBlendMode', { layer: grey.id, mode: 'multiply' });
    const f = await render(s);
    near(px(f, 10, 30), [128, 64, 32, 255]);
    near(px(f, 90, 30), [255, 128, 64, 255]);
  });

  it('add is lighter: #404040 + #202020 = #606060', async () => {
    const s = await scene('#202020');
    await s.cmd('layer.addSolid', { color: '#202020', name: 'Base' });
    const top = await s.cmd('layer.addSolid', { color: '#404040' });
    await s.cmd('layer.setBlendMode', { layer: top.id, mode: 'add' });
    near(px(await render(s), 50, 30), [0x60, 0x60, 0x60, 255]);
  });

  it('a hold keyframe does not move between keys, then jumps', async () => {
    const s = await scene('#000000');
    const sq = await s.cmd('layer.addSolid', { color: '#ffffff', width: 10, height: 10 });
    await s.key(sq.id, 'transform.position', 0, [10, 30], { interpolation: 'hold' });
    await s.key(sq.id, 'transform.position', 2, [80, 30], { interpolation: 'hold' });
    for (const t of [0, 0.5, 1, 1.9]) {
      const f = await render(s, t);
      expect(px(f, 10, 30), `t=${t}`).toEqual([255, 255, 255, 255]);
      expect(px(f, 80, 30), `t=${t}`).toEqual([0, 0, 0, 255]);
    }
    const after = await render(s, 2);
    expect(px(after, 80, 30)).toEqual([255, 255, 255, 255]);
    expect(px(after, 10, 30)).toEqual([0, 0, 0, 255]);
  });

  it('a linear keyframe is halfway at the midpoint; start time shifts keyframes', async () => {
    const s = await scene('#000000');
    const sq = await s.cmd('layer.addSolid', { color: '#ffffff', width: 4, height: 4 });
    await s.key(sq.id, 'transform.position', 0, [10, 30]);
    await s.key(sq.id, 'transform.position', 2, [90, 30]);
    expect(px(await render(s, 1), 50, 30)).toEqual([255, 255, 255, 255]);
    await s.cmd('layer.setTiming', { layer: sq.id, startTime: 1 });
    // Layer time 1 at comp time 2.
    expect(px(await render(s, 2), 50, 30)).toEqual([255, 255, 255, 255]);
    expect(px(await render(s, 1), 10, 30)).toEqual([255, 255, 255, 255]);
  });

  it('in and out points hide the layer outside [in, out)', async () => {
    const s = await scene('#000000');
    const sq = await s.cmd('layer.addSolid', { color: '#ffffff' });
    await s.cmd('layer.setTiming', { layer: sq.id, inPoint: 1, outPoint: 2 });
    expect(px(await render(s, 0.5), 50, 30)).toEqual([0, 0, 0, 255]);
    expect(px(await render(s, 1), 50, 30)).toEqual([255, 255, 255, 255]);
    expect(px(await render(s, 2), 50, 30)).toEqual([0, 0, 0, 255]);
  });

  it('transparent output keeps straight alpha through PNG encoding', async () => {
    const s = await scene();
    const red = await s.cmd('layer.addSolid', { color: '#ff0000' });
    await s.cmd('property.set', { layer: red.id, property: 'transform.opacity', value: 50 });
    const f = await render(s, 0, true);
    expect(f.premultiplied).toBe(true);
    near(px(f, 50, 30), [128, 0, 0, 128]);
    const png = await encodeStill(f, 'png');
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    near([...data.subarray(0, 4)], [255, 0, 0, 128]);
  });

  it('a disabled layer and a layer used as a track matte are not drawn', async () => {
    const s = await scene('#000000');
    const off = await s.cmd('layer.addSolid', { color: '#ff0000', name: 'Off' });
    await s.cmd('layer.setEnabled', { layer: off.id, enabled: false });
    expect(px(await render(s), 50, 30)).toEqual([0, 0, 0, 255]);
    const content = await s.cmd('layer.addSolid', {
      color: '#00ff00',
      width: 50,
      height: 60,
      name: 'Content',
    });
    await s.cmd('property.set', { layer: content.id, property: 'transform.position', value: [25, 30] });
    const matte = await s.cmd('layer.addSolid', { color: '#ffffff', name: 'Matte' });
    await s.cmd('layer.setTrackMatte', { layer: content.id, matte: matte.id, mode: 'alpha' });
    const f = await render(s);
    expect(px(f, 10, 30)).toEqual([0, 255, 0, 255]);
    // The matte (white, full frame) itself is hidden.
    expect(px(f, 90, 30)).toEqual([0, 0, 0, 255]);
  });

  it('luma matte: black hides, white shows; inverted does the opposite', async () => {
    const s = await scene('#000000');
    const content = await s.cmd('layer.addSolid', { color: '#ff0000', name: 'Content' });
    const matte = await s.cmd('layer.addSolid', { color: '#ffffff', width: 50, height: 60, name: 'Matte' });
    await s.cmd('property.set', { layer: matte.id, property: 'transform.position', value: [25, 30] });
    await s.cmd('layer.setTrackMatte', { layer: content.id, matte: matte.id, mode: 'luma' });
    let f = await render(s);
    expect(px(f, 10, 30)).toEqual([255, 0, 0, 255]);
    expect(px(f, 90, 30)).toEqual([0, 0, 0, 255]);
    await s.cmd('layer.setTrackMatte', { layer: content.id, matte: matte.id, mode: 'lumaInverted' });
    f = await render(s);
    expect(px(f, 10, 30)).toEqual([0, 0, 0, 255]);
    expect(px(f, 90, 30)).toEqual([255, 0, 0, 255]);
  });

  it('an adjustment layer inverts only what is below it', async () => {
    const s = await scene('#000000');
    await s.cmd('layer.addSolid', { color: '#ff8000', name: 'Below' });
    const adj = await s.cmd('layer.addAdjustment', {});
    await s.cmd('effect.add', { layer: adj.id, effect: 'invert' });
    const above = await s.cmd('layer.addSolid', { color: '#00ff00', width: 20, height: 20, name: 'Above' });
    await s.cmd('property.set', { layer: above.id, property: 'transform.position', value: [10, 10] });
    const f = await render(s);
    near(px(f, 50, 30), [0, 127, 255, 255]);
    expect(px(f, 5, 5)).toEqual([0, 255, 0, 255]);
  });

  it('a precomp shows the nested composition at layer time', async () => {
    const s = new Scene();
    const inner = await s.cmd('comp.new', {
      name: 'Inner',
      width: 100,
      height: 60,
      duration: 4,
      backgroundColor: '#00ff00',
    });
    const sq = await s.cmd('layer.addSolid', { color: '#ffffff', width: 10, height: 10 });
    await s.key(sq.id, 'transform.position', 0, [10, 30], { interpolation: 'hold' });
    await s.key(sq.id, 'transform.position', 1, [80, 30], { interpolation: 'hold' });
    const outer = await s.cmd('comp.new', {
      name: 'Outer',
      width: 100,
      height: 60,
      duration: 4,
      backgroundColor: '#000000',
    });
    const pre = await s.cmd('layer.addPrecomp', { source: inner.id });
    await s.cmd('layer.setTiming', { layer: pre.id, startTime: 1 });
    const at = (t: number) => renderer.renderFrame(s.doc, outer.id, t, { missingFootage: 'fail' });
    // Nested comp backgrounds are not drawn (as in After Effects); comp time 1.5 is nested time 0.5.
    const f = await at(1.5);
    expect(px(f, 10, 30)).toEqual([255, 255, 255, 255]);
    expect(px(f, 50, 30)).toEqual([0, 0, 0, 255]);
    expect(px(await at(2.5), 80, 30)).toEqual([255, 255, 255, 255]);
  });

  it('renders at a scale', async () => {
    const s = await scene('#ff0000');
    const f = await renderer.renderFrame(s.doc, s.doc.activeComp!, 0, { scale: 0.5, missingFootage: 'fail' });
    expect([f.width, f.height]).toEqual([50, 30]);
    expect(f.rgba.length).toBe(50 * 30 * 4);
  });
});
