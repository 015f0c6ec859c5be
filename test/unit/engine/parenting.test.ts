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
