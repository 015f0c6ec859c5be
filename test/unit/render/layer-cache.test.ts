/**
 * The static-layer cache (src/render/layer-cache.ts): a renderer that keeps layer surfaces across frames draws
 * exactly what a fresh renderer draws, shows edits at once, keeps nothing keyframed, tells a kept layer's
 * warnings every frame, and stays within its budget.
 */
import { readFile } from 'node:fs/promises';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createFrameRenderer } from '../../../src/render/index.js';
import { hasStaticContent, LayerSurfaceCache } from '../../../src/render/layer-cache.js';
import type { LayerSurface } from '../../../src/render/layer-draw.js';
import type { Layer } from '../../../src/engine/index.js';
import { Scene } from '../../integration/render/scenes.js';

const kept = createFrameRenderer({ readFile: (p) => readFile(p) });
afterAll(() => kept.dispose());

const options = { missingFootage: 'fail' as const };

/** The frame at `t` from a renderer that has drawn nothing before (so nothing of it was kept). */
async function fresh(s: Scene, t: number): Promise<Buffer> {
  const r = createFrameRenderer({ readFile: (p) => readFile(p) });
  try {
    return (await r.renderFrame(s.doc, s.doc.activeComp!, t, options)).rgba;
  } finally {
    r.dispose();
  }
}

const frame = async (s: Scene, t: number) => kept.renderFrame(s.doc, s.doc.activeComp!, t, options);

/** A comp with a blurred square that moves and turns, and stroked text that fades: both static content. */
async function movingScene(): Promise<{ s: Scene; square: string; text: string; blur: string }> {
  const s = new Scene();
  await s.cmd('comp.new', { width: 200, height: 120, duration: 2, backgroundColor: '#102030' });
  const square = await s.cmd('layer.addSolid', { color: '#e0a040', width: 40, height: 40 });
  const fx = await s.cmd('effect.add', { layer: square.id, effect: 'gaussianBlur', params: { radius: 8 } });
  await s.key(square.id, 'transform.position', 0, [40, 60]);
  await s.key(square.id, 'transform.position', 2, [160, 60]);
  // Scaled unevenly and turning: its device scale moves in the last bits from frame to frame.
  await s.cmd('property.set', { layer: square.id, property: 'transform.scale', value: [140, 80] });
  await s.key(square.id, 'transform.rotation', 0, 0);
  await s.key(square.id, 'transform.rotation', 2, 90);
  const text = await s.cmd('layer.addText', {
    text: 'Kept',
    fontSize: 40,
    strokeColor: '#000000',
    strokeWidth: 3,
  });
  await s.key(text.id, 'transform.opacity', 0, 100);
  await s.key(text.id, 'transform.opacity', 2, 40);
  return { s, square: square.id, text: text.id, blur: fx.id };
}

describe('static layers kept across frames', () => {
  it('draw every frame exactly as a renderer that kept nothing', async () => {
    const { s } = await movingScene();
    for (const t of [0, 0.5, 1, 1.5, 2, 0.25]) {
      const got = (await frame(s, t)).rgba;
      expect(got.equals(await fresh(s, t)), `frame at ${t} s`).toBe(true);
    }
  });

  it('are rendered once: a turning, unevenly scaled blurred layer is shown from the cache after its first frame', async () => {
    const { s } = await movingScene();
    const r = createFrameRenderer({ readFile: (p) => readFile(p) });
    const get = vi.spyOn(LayerSurfaceCache.prototype, 'get');
    try {
      for (let i = 0; i < 40; i++) await r.renderFrame(s.doc, s.doc.activeComp!, i / 20, options);
      // Two layers on surfaces (the blurred square, the stroked text): each missed once, then found.
      const found = get.mock.results.filter((x) => x.value !== null).length;
      expect(get.mock.calls.length).toBe(80);
      expect(found).toBe(78);
    } finally {
      get.mockRestore();
      r.dispose();
    }
  });

  it('show an edit of the layer on the next frame', async () => {
    const { s, square, blur } = await movingScene();
    await frame(s, 0);
    await s.cmd('property.set', { layer: square, property: 'solid.color', value: '#20c040' });
    const recoloured = (await frame(s, 0)).rgba;
    expect(recoloured.equals(await fresh(s, 0))).toBe(true);
    await s.cmd('property.set', { layer: square, property: `effects.${blur}.radius`, value: 0 });
    const sharp = await frame(s, 0);
    expect(sharp.rgba.equals(await fresh(s, 0))).toBe(true);
    // The square's centre is the new colour, and without the blur its edge is hard.
    const at = (x: number, y: number) => [...sharp.rgba.subarray((y * 200 + x) * 4, (y * 200 + x) * 4 + 3)];
    expect(at(40, 60)).toEqual([0x20, 0xc0, 0x40]);
    expect(at(40, 81)).toEqual([0x10, 0x20, 0x30]);
  });

  it('are never keyframed ones: a keyframed colour or effect param changes frame by frame', async () => {
    const s = new Scene();
    await s.cmd('comp.new', { width: 100, height: 60, duration: 3, backgroundColor: '#000000' });
    const sq = await s.cmd('layer.addSolid', { color: '#ff0000', width: 40, height: 40 });
    const fx = await s.cmd('effect.add', { layer: sq.id, effect: 'gaussianBlur', params: { radius: 2 } });
    await s.key(sq.id, 'solid.color', 0, '#ff0000');
    await s.key(sq.id, 'solid.color', 2, '#0000ff');
    const centre = async (t: number) => [
      ...(await frame(s, t)).rgba.subarray((30 * 100 + 50) * 4, (30 * 100 + 50) * 4 + 3),
    ];
    expect(await centre(0)).toEqual([255, 0, 0]);
    expect(await centre(2)).toEqual([0, 0, 255]);
    const layer = () => s.doc.items.flatMap((i) => (i.type === 'composition' ? i.layers : []))[0]!;
    expect(hasStaticContent(layer())).toBe(false);
    // The colour constant again: now only the blur radius is keyframed.
    await s.cmd('property.clearKeyframes', { layer: sq.id, property: 'solid.color' });
    await s.cmd('property.set', { layer: sq.id, property: 'solid.color', value: '#00ff00' });
    await s.key(sq.id, `effects.${fx.id}.radius`, 0, 0);
    await s.key(sq.id, `effects.${fx.id}.radius`, 2, 10);
    expect(hasStaticContent(layer())).toBe(false);
    expect((await frame(s, 2)).rgba.equals(await fresh(s, 2))).toBe(true);
  });

  it('tell their warnings on every frame they are shown', async () => {
    const s = new Scene();
    await s.cmd('comp.new', { width: 160, height: 80, duration: 2, backgroundColor: '#000000' });
    // A stroke puts the text on a surface of its own; the Hangul is not in the bundled fonts.
    await s.cmd('layer.addText', { text: 'A 한', fontSize: 30, strokeColor: '#ff0000', strokeWidth: 2 });
    const first = await frame(s, 0);
    const second = await frame(s, 1);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toContain('한');
    expect(second.warnings).toEqual(first.warnings);
  });
});

describe('hasStaticContent', () => {
  it('holds for solids, text and shapes without keyframes in their content or effects, whatever the transform', async () => {
    const { s } = await movingScene();
    const layers = s.doc.items.flatMap((i) => (i.type === 'composition' ? i.layers : []));
    expect(layers.map(hasStaticContent)).toEqual([true, true]);
  });

  it('never holds for footage, precomps, nulls or adjustment layers', async () => {
    const s = new Scene();
    const inner = await s.cmd('comp.new', { name: 'Inner', width: 50, height: 50, duration: 1 });
    await s.cmd('comp.new', { name: 'Outer', width: 50, height: 50, duration: 1 });
    await s.cmd('layer.addPrecomp', { source: inner.id });
    await s.cmd('layer.addNull', {});
    await s.cmd('layer.addAdjustment', {});
    const outer = s.doc.items.find((i) => i.type === 'composition' && i.name === 'Outer');
    const layers = outer && outer.type === 'composition' ? outer.layers : [];
    expect(layers.map((l: Layer) => l.source.kind).sort()).toEqual(['adjustment', 'null', 'precomp']);
    expect(layers.map(hasStaticContent)).toEqual([false, false, false]);
  });
});

describe('LayerSurfaceCache', () => {
  const surfaceOf = (side: number): LayerSurface => {
    const canvas = createCanvas(side, side);
    return {
      surface: { canvas, ctx: canvas.getContext('2d') },
      rect: { x: 0, y: 0, w: side, h: side },
      k: 1,
    };
  };
  const layer = (id: string) => ({ id }) as unknown as Layer;

  it('gives a surface back only at the scale it was kept at', () => {
    const cache = new LayerSurfaceCache(1 << 20, () => undefined);
    const a = layer('a');
    const s = surfaceOf(10);
    expect(cache.put(a, 1, s, ['note'])).toBe(true);
    const told: string[] = [];
    expect(cache.get(a, 1, (w) => told.push(w))).toBe(s);
    expect(told).toEqual(['note']);
    expect(cache.get(a, 2, () => undefined)).toBeNull();
    expect(cache.get(layer('b'), 1, () => undefined)).toBeNull();
  });

  it('stays within its budget, the least recently used out first and given back; refuses what is too large', () => {
    const released: unknown[] = [];
    // 100 x 100 is 40,000 bytes: a budget of 100,000 holds two.
    const cache = new LayerSurfaceCache(100_000, (s) => released.push(s));
    const [a, b, c] = [layer('a'), layer('b'), layer('c')];
    const [sa, sb, sc] = [surfaceOf(100), surfaceOf(100), surfaceOf(100)];
    cache.put(a, 1, sa, []);
    cache.put(b, 1, sb, []);
    cache.get(a, 1, () => undefined);
    cache.put(c, 1, sc, []);
    expect(released).toEqual([sb.surface]);
    expect(cache.get(b, 1, () => undefined)).toBeNull();
    expect(cache.get(a, 1, () => undefined)).toBe(sa);
    expect(cache.get(c, 1, () => undefined)).toBe(sc);
    // Keeping a layer again at another scale gives back the surface it replaces.
    const sa2 = surfaceOf(50);
    cache.put(a, 2, sa2, []);
    expect(released).toEqual([sb.surface, sa.surface]);
    // At most 256 entries, however small: the oldest go.
    const many = Array.from({ length: 300 }, (_, i) => layer(`m${i}`));
    for (const l of many) cache.put(l, 1, surfaceOf(1), []);
    expect(many.filter((l) => cache.get(l, 1, () => undefined)).length).toBe(256);
    expect(cache.get(many[0]!, 1, () => undefined)).toBeNull();
    expect(cache.get(many[299]!, 1, () => undefined)).not.toBeNull();
    // More than half the budget is never kept.
    expect(cache.put(layer('d'), 1, surfaceOf(200), [])).toBe(false);
  });
});
