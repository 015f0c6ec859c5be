import { describe, expect, it } from 'vitest';
import type { Composition } from '../../../src/engine/index.js';
import { worldMatrices } from '../../../src/engine/layer-transform.js';
import { newEngine, run } from '../../helpers/engine.js';

async function scene() {
  const engine = newEngine();
  await run(engine, 'comp.new', { width: 300, height: 200 });
  const parent = await run<{ id: string }>(engine, 'layer.addNull', { name: 'P' });
  await run(engine, 'property.set', { layer: 'P', property: 'position', value: [150, 100] });
  await run(engine, 'property.set', { layer: 'P', property: 'rotation', value: 30 });
  await run(engine, 'property.set', { layer: 'P', property: 'scale', value: [50, 200] });
  await run(engine, 'property.set', { layer: 'P', property: 'anchorPoint', value: [10, -5] });
  const child = await run<{ id: string }>(engine, 'layer.addSolid', {
    color: 'red',
    width: 40,
    height: 20,
    name: 'C',
  });
  await run(engine, 'property.set', { layer: 'C', property: 'position', value: [200, 60] });
  await run(engine, 'property.set', { layer: 'C', property: 'rotation', value: 12 });
  const comp = () => engine.document.items[0] as Composition;
  const worldOf = (id: string) => worldMatrices(comp(), 0)(comp().layers.find((l) => l.id === id)!);
  return { engine, parent, child, comp, worldOf };
}

const close = (a: readonly number[], b: readonly number[]) =>
  a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 3));

describe('layer.setParent keeps the layer in place (After Effects parenting)', () => {
  it('parenting to a rotated, non-uniformly scaled parent leaves the on-screen centre where it was', async () => {
    const { engine, child, worldOf } = await scene();
    const before = worldOf(child.id);
    const r = await run<{ position: number[] }>(engine, 'layer.setParent', { layer: 'C', parent: 'P' });
    const after = worldOf(child.id);
    // The layer's anchor (its centre) maps to the same comp point; position changed into parent space.
    const centre = (m: readonly number[]) => [
      m[0]! * 20 + m[2]! * 10 + m[4]!,
      m[1]! * 20 + m[3]! * 10 + m[5]!,
    ];
    close(centre(after), centre(before));
    expect(r.position).not.toEqual([200, 60]);
  });

  it('with a uniformly scaled parent the whole transform is kept exactly, and unparenting restores it', async () => {
    const { engine, child, worldOf } = await scene();
    await run(engine, 'property.set', { layer: 'P', property: 'scale', value: [50, 50] });
    const before = worldOf(child.id);
    await run(engine, 'layer.setParent', { layer: 'C', parent: 'P' });
    close(worldOf(child.id), before);
    await run(engine, 'layer.setParent', { layer: 'C', parent: null });
    close(worldOf(child.id), before);
    const c = engine.document.items[0] as Composition;
    const t = c.layers.find((l) => l.id === child.id)!.transform;
    // Round trips give clean values, without float noise.
    expect(t.position.value).toEqual([200, 60]);
    expect(t.scale.value).toEqual([100, 100]);
    expect(t.rotation.value).toBe(12);
  });

  it('jump: true keeps the values, so the layer moves with its parent', async () => {
    const { engine, comp } = await scene();
    await run(engine, 'layer.setParent', { layer: 'C', parent: 'P', jump: true });
    expect(comp().layers.find((l) => l.name === 'C')!.transform.position.value).toEqual([200, 60]);
  });

  it('a keyframed transform is not rewritten, with a warning', async () => {
    const { engine, comp } = await scene();
    await run(engine, 'property.setKeyframe', { layer: 'C', property: 'position', time: 1, value: [0, 0] });
    const r = await engine.execute('layer.setParent', { layer: 'C', parent: 'P' });
    expect(r.ok && r.warnings?.[0]).toContain('keyframed');
    expect(comp().layers.find((l) => l.name === 'C')!.transform.position.value).toEqual([200, 60]);
  });
});

describe('layer.delete of a parent keeps its children in place', () => {
  it('a child of a rotated, scaled parent stays where it was on screen, and undo restores the document', async () => {
    // Until 2026-12-07 the children were only unparented: their values, in the parent's space, were read as comp
    // values, and a child of a null at (100, 100) turned 90 degrees and scaled 50% went from (150, 60) to (-80, -25).
    const { engine, child, worldOf } = await scene();
    await run(engine, 'property.set', { layer: 'P', property: 'scale', value: [50, 50] });
    await run(engine, 'layer.setParent', { layer: 'C', parent: 'P' });
    const before = worldOf(child.id);
    const doc = engine.document;
    await run(engine, 'layer.delete', { layer: 'P' });
    close(worldOf(child.id), before);
    const c = engine.document.items[0] as Composition;
    const t = c.layers.find((l) => l.id === child.id)!.transform;
    expect(c.layers.find((l) => l.id === child.id)!.parent).toBe(null);
    expect(t.position.value).toEqual([200, 60]);
    expect(t.scale.value).toEqual([100, 100]);
    expect(t.rotation.value).toBe(12);
    await run(engine, 'edit.undo');
    expect(engine.document).toEqual(doc);
  });

  it('a keyframed child keeps its values, with a warning', async () => {
    const { engine, comp } = await scene();
    await run(engine, 'layer.setParent', { layer: 'C', parent: 'P', jump: true });
    await run(engine, 'property.setKeyframe', { layer: 'C', property: 'position', time: 1, value: [0, 0] });
    const r = await engine.execute('layer.delete', { layer: 'P' });
    expect(r.ok && r.warnings?.[0]).toContain('keyframed');
    expect(comp().layers.find((l) => l.name === 'C')!.transform.position.value).toEqual([200, 60]);
  });
});

describe('worldMatrices over long parent chains', () => {
  /** A composition whose `count` null layers each have the one before as parent, each 1 px to the right of it. */
  async function chain(count: number): Promise<Composition> {
    const engine = newEngine();
    await run(engine, 'comp.new', { width: 64, height: 64 });
    await run(engine, 'layer.addNull', { name: 'N' });
    await run(engine, 'property.set', { layer: 'N', property: 'position', value: [1, 0] });
    await run(engine, 'property.set', { layer: 'N', property: 'anchorPoint', value: [0, 0] });
    const comp = structuredClone(engine.document.items[0] as Composition);
    const proto = comp.layers[0]!;
    comp.layers = Array.from({ length: count }, (_, i) => ({
      ...structuredClone(proto),
      id: `layer_${i + 100}`,
      name: `N${i}`,
      parent: i ? `layer_${i + 99}` : null,
    }));
    return comp;
  }

  it('follows a chain as long as a composition may hold (10,000 layers) without overflowing the stack', async () => {
    // The walk was recursive, one call per parent: a 10,000-layer chain failed every frame with
    // "Maximum call stack size exceeded".
    const comp = await chain(10_000);
    const world = worldMatrices(comp, 0);
    close(world(comp.layers.at(-1)!), [1, 0, 0, 1, 10_000, 0]);
    close(world(comp.layers[4_999]!), [1, 0, 0, 1, 5_000, 0]);
  });

  it('still refuses a chain that loops', async () => {
    const comp = await chain(3);
    comp.layers[0]!.parent = comp.layers[2]!.id;
    expect(() => worldMatrices(comp, 0)(comp.layers[1]!)).toThrow(
      expect.objectContaining({ code: 'bad_argument' }),
    );
  });
});
