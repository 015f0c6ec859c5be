import { describe, expect, it } from 'vitest';
import type { Composition } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';

async function withComp() {
  const engine = newEngine();
  const { id } = await run<{ id: string }>(engine, 'comp.new', {
    name: 'Main',
    width: 640,
    height: 360,
    frameRate: 25,
    duration: 4,
    backgroundColor: '#102030',
  });
  const comp = () => engine.document.items.find((i) => i.id === id) as Composition;
  return { engine, id, comp };
}

describe('composition commands', () => {
  it('comp.new creates an active composition with defaults', async () => {
    const engine = newEngine();
    const { id } = await run<{ id: string }>(engine, 'comp.new', { width: 100, height: 50 });
    const comp = engine.document.items[0] as Composition;
    expect(comp).toMatchObject({
      id,
      name: 'Comp',
      width: 100,
      height: 50,
      frameRate: 30,
      duration: 10,
      backgroundColor: '#000000',
      layers: [],
    });
    expect(engine.document.activeComp).toBe(id);
    await run(engine, 'comp.new', { width: 1, height: 1 });
    expect(engine.document.items.map((i) => i.name)).toEqual(['Comp', 'Comp 2']);
  });

  it('rejects bad sizes and colours', async () => {
    const engine = newEngine();
    expect(await fails(engine, 'comp.new', { width: 0, height: 10 })).toBe('bad_argument');
    expect(await fails(engine, 'comp.new', { width: 10, height: 10, backgroundColor: 'not-a-colour' })).toBe(
      'bad_argument',
    );
  });

  it('refuses frame rates under 1 fps, as After Effects does (0.0004 fps made a 4 s composition a 2500 s video)', async () => {
    const engine = newEngine();
    const r = await engine.execute('comp.new', { width: 10, height: 10, frameRate: 0.0004 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('bad_argument');
      expect(`${r.error.message} ${r.error.remediation}`).toMatch(/frameRate/);
      expect(`${r.error.message} ${r.error.remediation}`).toMatch(/\b1\b/);
    }
    const { id } = await run<{ id: string }>(engine, 'comp.new', { width: 10, height: 10, frameRate: 1 });
    expect(await fails(engine, 'comp.setSettings', { comp: id, frameRate: 0.5 })).toBe('bad_argument');
  });

  it('comp.setActive, setSettings, duplicate and delete', async () => {
    const { engine, id } = await withComp();
    const other = await run<{ id: string }>(engine, 'comp.new', { name: 'Other', width: 10, height: 10 });
    expect(engine.document.activeComp).toBe(other.id);
    await run(engine, 'comp.setActive', { comp: 'Main' });
    expect(engine.document.activeComp).toBe(id);
    const s = await run(engine, 'comp.setSettings', {
      comp: id,
      width: 1280,
      frameRate: 60,
      backgroundColor: [1, 0, 0],
    });
    expect(s).toMatchObject({ width: 1280, height: 360, frameRate: 60, backgroundColor: '#ff0000' });
    const solid = await run<{ id: string }>(engine, 'layer.addSolid', { color: 'red' });
    const nul = await run<{ id: string }>(engine, 'layer.addNull', {});
    await run(engine, 'layer.setParent', { layer: solid.id, parent: nul.id });
    const dup = await run<{ id: string }>(engine, 'comp.duplicate', { comp: 'Main' });
    const copy = engine.document.items.find((i) => i.id === dup.id) as Composition;
    expect(copy.name).toBe('Main copy');
    expect(copy.layers).toHaveLength(2);
    const copySolid = copy.layers.find((l) => l.source.kind === 'solid')!;
    const copyNull = copy.layers.find((l) => l.source.kind === 'null')!;
    expect(copySolid.id).not.toBe(solid.id);
    expect(copySolid.parent).toBe(copyNull.id);
    await run(engine, 'comp.delete', { comp: dup.id });
    expect(engine.document.items.some((i) => i.id === dup.id)).toBe(false);
  });

  it('refuses to delete a composition used as a precomp or queued for render', async () => {
    const { engine, id } = await withComp();
    const outer = await run<{ id: string }>(engine, 'comp.new', { name: 'Outer', width: 10, height: 10 });
    await run(engine, 'layer.addPrecomp', { comp: outer.id, source: id });
    // Named after the composition it shows; a second one is numbered.
    await run(engine, 'layer.addPrecomp', { comp: outer.id, source: id });
    const inner = engine.document.items.find((i) => i.id === id)!.name;
    const outerComp = engine.document.items.find((i) => i.id === outer.id) as { layers: { name: string }[] };
    expect(outerComp.layers.map((l) => l.name).sort()).toEqual([inner, `${inner} 2`].sort());
    expect(await fails(engine, 'comp.delete', { comp: id })).toBe('bad_argument');
    expect(await fails(engine, 'layer.addPrecomp', { comp: id, source: outer.id })).toBe('bad_argument');
    expect(await fails(engine, 'layer.addPrecomp', { comp: id, source: id })).toBe('bad_argument');
  });

  it('resolves names, and reports ambiguous and unknown names with candidates', async () => {
    const { engine } = await withComp();
    await run(engine, 'comp.new', { name: 'Main', width: 10, height: 10 });
    const r = await engine.execute('comp.setActive', { comp: 'Main' });
    expect(r).toMatchObject({ ok: false, error: { code: 'ambiguous_name' } });
    if (!r.ok) expect(r.error.message).toContain('comp_1');
    const u = await engine.execute('comp.setActive', { comp: 'Nope' });
    expect(u).toMatchObject({ ok: false, error: { code: 'not_found' } });
    if (!u.ok) expect(u.error.message).toContain('Main');
  });
});

describe('layer commands', () => {
  it('adds every layer kind on top with After Effects defaults', async () => {
    const { engine, comp } = await withComp();
    const png = await run<{ id: string }>(engine, 'comp.new', { name: 'Nested', width: 200, height: 100 });
    await run(engine, 'comp.setActive', { comp: 'Main' });
    await run(engine, 'layer.addSolid', { color: '#ff0000', width: 100, height: 50 });
    await run(engine, 'layer.addText', { text: 'Hello', fontSize: 40 });
    await run(engine, 'layer.addShape', {
      shape: { type: 'star', points: 5, outerRadius: 50, innerRadius: 20 },
      strokeColor: '#000',
      strokeWidth: 3,
    });
    await run(engine, 'layer.addShape', {
      shape: { type: 'rectangle', size: [100, 40], roundness: 8 },
      gradient: {
        type: 'linear',
        start: [-50, 0],
        end: [50, 0],
        stops: [
          { offset: 0, color: 'red' },
          { offset: 1, color: 'blue' },
        ],
      },
    });
    await run(engine, 'layer.addNull', {});
    await run(engine, 'layer.addAdjustment', {});
    await run(engine, 'layer.addPrecomp', { source: png.id });
    const layers = comp().layers;
    expect(layers.map((l) => l.source.kind)).toEqual([
      'precomp',
      'adjustment',
      'null',
      'shape',
      'shape',
      'text',
      'solid',
    ]);
    const solid = layers[6]!;
    expect(solid.transform.anchorPoint.value).toEqual([50, 25]);
    expect(solid.transform.position.value).toEqual([320, 180]);
    expect(solid).toMatchObject({
      inPoint: 0,
      outPoint: 4,
      startTime: 0,
      enabled: true,
      blendMode: 'normal',
      parent: null,
      trackMatte: null,
    });
    expect(layers[0]!.transform.anchorPoint.value).toEqual([100, 50]);
    const star = layers[4]!.source;
    expect(star.kind === 'shape' && star.shape.type === 'polygon' && star.shape.innerRadius?.value).toBe(20);
    const grad = layers[3]!.source;
    expect(grad.kind === 'shape' && grad.fill).toBe(null);
    expect(grad.kind === 'shape' && grad.gradient?.stops[1]?.color).toBe('#0000ff');
  });

  it('delete, duplicate, move, rename, enable', async () => {
    const { engine, comp } = await withComp();
    const a = await run<{ id: string }>(engine, 'layer.addSolid', { color: 'red', name: 'A' });
    const b = await run<{ id: string }>(engine, 'layer.addSolid', { color: 'blue', name: 'B' });
    expect(comp().layers.map((l) => l.name)).toEqual(['B', 'A']);
    await run(engine, 'layer.move', { layer: 'B', index: 1 });
    expect(comp().layers.map((l) => l.name)).toEqual(['A', 'B']);
    expect(await fails(engine, 'layer.move', { layer: 'B', index: 2 })).toBe('bad_argument');
    const c = await run<{ id: string }>(engine, 'layer.duplicate', { layer: a.id });
    expect(comp().layers.map((l) => l.id)).toEqual([c.id, a.id, b.id]);
    expect(comp().layers[0]!.name).toBe('A 2');
    await run(engine, 'layer.rename', { layer: c.id, name: 'C' });
    await run(engine, 'layer.setEnabled', { layer: 'C', enabled: false });
    expect(comp().layers[0]).toMatchObject({ name: 'C', enabled: false });
    await run(engine, 'layer.setParent', { layer: 'B', parent: 'A' });
    await run(engine, 'layer.setTrackMatte', { layer: 'C', matte: 'A', mode: 'lumaInverted' });
    await run(engine, 'layer.delete', { layer: 'A' });
    expect(comp().layers.map((l) => l.name)).toEqual(['C', 'B']);
    expect(comp().layers[1]!.parent).toBe(null);
    expect(comp().layers[0]!.trackMatte).toBe(null);
  });

  it('refuses parent cycles and self mattes', async () => {
    const { engine } = await withComp();
    await run(engine, 'layer.addNull', { name: 'P' });
    await run(engine, 'layer.addNull', { name: 'C' });
    await run(engine, 'layer.setParent', { layer: 'C', parent: 'P' });
    expect(await fails(engine, 'layer.setParent', { layer: 'P', parent: 'C' })).toBe('bad_argument');
    expect(await fails(engine, 'layer.setParent', { layer: 'P', parent: 'P' })).toBe('bad_argument');
    expect(await fails(engine, 'layer.setTrackMatte', { layer: 'P', matte: 'P' })).toBe('bad_argument');
    await run(engine, 'layer.setParent', { layer: 'C', parent: null });
  });

  it('blend mode and timing', async () => {
    const { engine, comp } = await withComp();
    await run(engine, 'layer.addSolid', { color: 'red', name: 'S' });
    await run(engine, 'layer.setBlendMode', { layer: 'S', mode: 'multiply' });
    expect(await fails(engine, 'layer.setBlendMode', { layer: 'S', mode: 'burn-it' })).toBe('bad_argument');
    await run(engine, 'layer.setTiming', { layer: 'S', inPoint: 1, outPoint: 3, startTime: 0.5 });
    expect(comp().layers[0]).toMatchObject({
      blendMode: 'multiply',
      inPoint: 1,
      outPoint: 3,
      startTime: 0.5,
    });
    expect(await fails(engine, 'layer.setTiming', { layer: 'S', inPoint: 3, outPoint: 2 })).toBe(
      'bad_argument',
    );
    // A start time alone slides the layer, in and out points with it (its end is not cut off).
    await run(engine, 'layer.setTiming', { layer: 'S', startTime: 1.5 });
    expect(comp().layers[0]).toMatchObject({ inPoint: 2, outPoint: 4, startTime: 1.5 });
    await run(engine, 'layer.setTiming', { layer: 'S', startTime: 1, outPoint: 5 });
    expect(comp().layers[0]).toMatchObject({ inPoint: 2, outPoint: 5, startTime: 1 });
  });

  it('footage layers need an imported item', async () => {
    const { engine } = await withComp();
    expect(await fails(engine, 'layer.addFootage', { footage: 'missing' })).toBe('not_found');
  });
});
