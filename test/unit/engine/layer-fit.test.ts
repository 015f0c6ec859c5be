// layer.fit: each mode's scale and the centring position (wherever the anchor is), one undo step, and the
// layers and states it refuses with a remedy.
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { applyProps, type Composition, type Layer } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

async function png(path: string, width: number, height: number): Promise<string> {
  await sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
    .png()
    .toFile(path);
  return path;
}

/** A 400x200 still fitted (cover) into a 100x100 composition, and a 100x400 one to replace it. */
async function fittedStill() {
  const dir = await tempDir();
  const wide = await png(join(dir, 'wide.png'), 400, 200);
  const tall = await png(join(dir, 'tall.png'), 100, 400);
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'C', width: 100, height: 100, frameRate: 10, duration: 1 });
  const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: wide });
  const { id } = await run<{ id: string; scale: number[] }>(engine, 'layer.addFootage', {
    footage,
    fit: 'cover',
  });
  const comp = () => engine.document.items.find((i): i is Composition => i.type === 'composition')!;
  const layer = () => comp().layers[0]!;
  return { engine, footage, id, tall, layer, comp };
}

async function vertical() {
  const engine = newEngine();
  // A landscape 1920x1080 precomp in a vertical 1080x1920 social cut.
  await run(engine, 'comp.new', { name: 'Wide', width: 1920, height: 1080, frameRate: 30, duration: 1 });
  await run(engine, 'comp.new', { name: 'Cut', width: 1080, height: 1920, frameRate: 30, duration: 1 });
  const { id } = await run<{ id: string }>(engine, 'layer.addPrecomp', { comp: 'Cut', source: 'Wide' });
  const layer = (layerId = id): Layer =>
    engine.document.items
      .filter((i): i is Composition => i.type === 'composition')
      .flatMap((c) => c.layers)
      .find((l) => l.id === layerId)!;
  return { engine, id, layer };
}

describe('layer.fit', () => {
  it('scales by mode and centres the picture', async () => {
    const { engine, id, layer } = await vertical();
    const expected: Record<string, [number, number]> = {
      contain: [56.25, 56.25],
      cover: [177.777778, 177.777778],
      stretch: [56.25, 177.777778],
      width: [56.25, 56.25],
      height: [177.777778, 177.777778],
    };
    for (const [mode, scale] of Object.entries(expected)) {
      const r = await run<{ scale: number[]; position: number[] }>(engine, 'layer.fit', {
        comp: 'Cut',
        layer: id,
        mode,
      });
      expect(r.scale, mode).toEqual(scale);
      expect(layer().transform.scale.value, mode).toEqual(scale);
      // The anchor is the picture's middle, so the position is the frame's.
      expect(layer().transform.position.value, mode).toEqual([540, 960]);
    }
  });

  it('contain is the default, and the picture is centred whatever the anchor', async () => {
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'C', width: 200, height: 200, frameRate: 10, duration: 1 });
    const { id } = await run<{ id: string }>(engine, 'layer.addSolid', {
      color: '#ff0000',
      width: 100,
      height: 50,
    });
    await run(engine, 'property.set', { layer: id, property: 'transform.anchorPoint', value: [0, 0] });
    const r = await run<{ mode: string; scale: number[]; position: number[] }>(engine, 'layer.fit', {
      layer: id,
    });
    expect(r.mode).toBe('contain');
    expect(r.scale).toEqual([200, 200]);
    // The solid's top left (the anchor) goes where a 200x100 picture centred in 200x200 starts: (0, 50).
    expect(r.position).toEqual([0, 50]);
  });

  it('is one undo step', async () => {
    const { engine, id, layer } = await vertical();
    const before = structuredClone(layer().transform);
    await run(engine, 'layer.fit', { comp: 'Cut', layer: id, mode: 'cover' });
    expect(layer().transform).not.toEqual(before);
    await run(engine, 'edit.undo');
    expect(layer().transform).toEqual(before);
  });

  it('refuses layers without a picture size, parented layers and animated transforms, changing nothing', async () => {
    const { engine, id, layer } = await vertical();
    const { id: text } = await run<{ id: string }>(engine, 'layer.addText', { comp: 'Cut', text: 'Hi' });
    const { id: nul } = await run<{ id: string }>(engine, 'layer.addNull', { comp: 'Cut' });
    expect(await fails(engine, 'layer.fit', { comp: 'Cut', layer: text })).toBe('bad_argument');
    expect(await fails(engine, 'layer.fit', { comp: 'Cut', layer: nul })).toBe('bad_argument');
    expect(await fails(engine, 'layer.fit', { comp: 'Cut', layer: id, mode: 'fill' })).toBe('bad_argument');

    await run(engine, 'layer.setParent', { comp: 'Cut', layer: id, parent: nul });
    const parented = await engine.execute('layer.fit', { comp: 'Cut', layer: id });
    expect(!parented.ok && parented.error.remediation).toContain('layer.setParent');
    await run(engine, 'layer.setParent', { comp: 'Cut', layer: id, parent: null });

    await run(engine, 'property.setKeyframe', {
      comp: 'Cut',
      layer: id,
      property: 'transform.scale',
      time: 0,
      value: [50, 50],
    });
    const before = structuredClone(layer().transform);
    const animated = await engine.execute('layer.fit', { comp: 'Cut', layer: id });
    expect(!animated.ok && animated.error.message).toContain('transform.scale');
    expect(!animated.ok && animated.error.remediation).toContain('property.clearKeyframes');
    expect(layer().transform).toEqual(before);
  });

  it('fits a turned layer as if upright, and says so', async () => {
    const { engine, id } = await vertical();
    await run(engine, 'property.set', { comp: 'Cut', layer: id, property: 'transform.rotation', value: 90 });
    const r = await engine.execute('layer.fit', { comp: 'Cut', layer: id, mode: 'cover' });
    expect(r.ok && r.warnings?.[0]).toContain('turned');
    const upright = await engine.execute('layer.fit', { comp: 'Cut', layer: id, mode: 'cover' });
    expect(upright.ok).toBe(true);
    await run(engine, 'property.set', { comp: 'Cut', layer: id, property: 'transform.rotation', value: 180 });
    const flipped = await engine.execute('layer.fit', { comp: 'Cut', layer: id });
    expect(flipped.ok && flipped.warnings).toBeFalsy();
  });

  it('a fitted layer is fitted again when its file is relinked to another size', async () => {
    const { engine, footage, tall, layer } = await fittedStill();
    expect(layer().fit).toBe('cover');
    expect(layer().transform.scale.value).toEqual([50, 50]);
    const view = await run<{ activeComposition: { layers: { fit?: string }[] } }>(engine, 'project.inspect');
    expect(view.activeComposition.layers[0]!.fit).toBe('cover');
    const r = await engine.execute('footage.relink', { footage, path: tall });
    expect(r.ok && r.warnings?.join(' ')).toContain('(cover)');
    // 100x400 covering 100x100: the width decides, 100%; the anchor followed to the middle, so still centred.
    expect(layer().transform.scale.value).toEqual([100, 100]);
    expect(layer().transform.anchorPoint.value).toEqual([50, 200]);
    expect(layer().transform.position.value).toEqual([50, 50]);
  });

  it('a fitted layer someone scaled since keeps their scale on relink', async () => {
    const { engine, footage, id, tall, layer } = await fittedStill();
    await run(engine, 'property.set', { layer: id, property: 'transform.scale', value: [60, 60] });
    const r = await engine.execute('footage.relink', { footage, path: tall });
    expect(r.ok && (r.warnings ?? []).join(' ')).not.toContain('(cover)');
    expect(layer().transform.scale.value).toEqual([60, 60]);
  });

  it("a template's footage input of another size is fitted in the render's copy", async () => {
    const { engine, id, tall, layer, comp } = await fittedStill();
    await run(engine, 'input.define', {
      name: 'clip',
      type: 'footage',
      bind: [{ layer: id, property: 'source' }],
    });
    const probed = new Map([[tall, { path: tall, width: 100, height: 400, format: 'png' }]]);
    const applied = applyProps(engine.document, comp().id, { clip: tall }, probed);
    const shown = applied.items.find((i): i is Composition => i.type === 'composition')!.layers[0]!;
    expect(shown.transform.scale.value).toEqual([100, 100]);
    expect(shown.transform.position.value).toEqual([50, 50]);
    // The project itself is untouched.
    expect(layer().transform.scale.value).toEqual([50, 50]);
  });

  it('a new composition size fits again the layers still showing their fit (a vertical version of a comp)', async () => {
    const { engine, id, layer } = await vertical();
    await run(engine, 'layer.fit', { comp: 'Cut', layer: id, mode: 'cover' });
    const { id: copy } = await run<{ id: string }>(engine, 'comp.duplicate', { comp: 'Cut', name: 'Square' });
    const { id: other } = await run<{ id: string }>(engine, 'layer.addPrecomp', {
      comp: 'Square',
      source: 'Wide',
    });
    // Fitted, then scaled by hand: theirs.
    await run(engine, 'layer.fit', { comp: 'Square', layer: other, mode: 'contain' });
    await run(engine, 'property.set', {
      comp: 'Square',
      layer: other,
      property: 'transform.scale',
      value: [30, 30],
    });
    const copied = engine.document.items.find((i): i is Composition => i.id === copy)!.layers.at(-1)!;
    const r = await engine.execute('comp.setSettings', { comp: 'Square', width: 1080, height: 1080 });
    expect(r.ok && r.warnings?.join(' ')).toContain('(cover)');
    // The copy of the fitted layer covers 1080x1080 by height; the one scaled by hand keeps its scale.
    expect(layer(copied.id).transform.scale.value).toEqual([100, 100]);
    expect(layer(copied.id).transform.position.value).toEqual([540, 540]);
    expect(layer(other).transform.scale.value).toEqual([30, 30]);
    // The original composition is untouched.
    expect(layer(id).transform.scale.value).toEqual([177.777778, 177.777778]);
    await run(engine, 'edit.undo');
    expect(layer(copied.id).transform.scale.value).toEqual([177.777778, 177.777778]);
  });
});
