/**
 * Inserting into and removing from long arrays (a composition's layers, a property's keyframes) is one change in
 * the undo step, whatever the array's length: a step costs memory in proportion to what it changed.
 */
import { describe, expect, it } from 'vitest';
import type { Composition, Engine } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';

/** An engine with one composition of `layers` null layers. */
async function compWith(layers: number): Promise<Engine> {
  const engine = newEngine();
  await run(engine, 'comp.new', { width: 64, height: 64 });
  await engine.group('setup', async (group) => {
    for (let i = 0; i < layers; i++) await run(engine, 'layer.addNull', { name: `N${i}` }, { group });
    return true;
  });
  return engine;
}

/** The number of changes the last undo step keeps. */
const lastStep = (engine: Engine) => engine.undoSteps().at(-1)!.changes;
const layerNames = (engine: Engine) => (engine.document.items[0] as Composition).layers.map((l) => l.name);

/** Runs an edit on a small and a large composition; returns the changes its undo step keeps on each. */
async function changes(edit: (engine: Engine) => Promise<unknown>): Promise<[number, number]> {
  const out: number[] = [];
  for (const size of [10, 1000]) {
    const engine = await compWith(size);
    const before = engine.document;
    await edit(engine);
    out.push(lastStep(engine));
    // The step still undoes and redoes exactly.
    const after = engine.document;
    await run(engine, 'edit.undo');
    expect(engine.document).toEqual(before);
    await run(engine, 'edit.redo');
    expect(engine.document).toEqual(after);
    expect(Object.isFrozen((engine.document.items[0] as Composition).layers[0])).toBe(true);
  }
  return out as [number, number];
}

describe('array edits are one change however long the array', () => {
  it('adding a layer on top', async () => {
    const [small, large] = await changes((e) => run(e, 'layer.addSolid', { color: 'red' }));
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(4);
  });

  it('duplicating, moving and deleting the bottom layer', async () => {
    const bottom = (e: Engine) => layerNames(e).at(-1)!;
    for (const edit of [
      (e: Engine) => run(e, 'layer.duplicate', { layer: bottom(e) }),
      (e: Engine) => run(e, 'layer.move', { layer: bottom(e), index: 0 }),
      (e: Engine) => run(e, 'layer.delete', { layer: bottom(e) }),
    ]) {
      const [small, large] = await changes(edit);
      expect(large).toBe(small);
      expect(large).toBeLessThanOrEqual(4);
    }
  });

  it('a layer move keeps the stack order of the others', async () => {
    const engine = await compWith(5);
    await run(engine, 'layer.move', { layer: 'N0', index: 1 });
    expect(layerNames(engine)).toEqual(['N4', 'N0', 'N3', 'N2', 'N1']);
    await run(engine, 'layer.move', { layer: 'N4', index: 4 });
    expect(layerNames(engine)).toEqual(['N0', 'N3', 'N2', 'N1', 'N4']);
  });

  it('setting and removing a keyframe before a thousand others', async () => {
    const engine = await compWith(1);
    const key = (time: number) => ({ layer: 'N0', property: 'rotation', time, value: time });
    await engine.group('keys', async (group) => {
      for (let t = 1; t <= 1000; t++) await run(engine, 'property.setKeyframe', key(t), { group });
      return true;
    });
    await run(engine, 'property.setKeyframe', key(0.5));
    expect(lastStep(engine)).toBeLessThanOrEqual(2);
    await run(engine, 'property.removeKeyframe', { layer: 'N0', property: 'rotation', time: 0.5 });
    expect(lastStep(engine)).toBeLessThanOrEqual(2);
    await run(engine, 'property.setKeyframe', key(0.25));
    const times = (engine.document.items[0] as Composition).layers[0]!.transform.rotation.keyframes.map(
      (k) => k.time,
    );
    expect(times.slice(0, 3)).toEqual([0.25, 1, 2]);
    expect(times).toHaveLength(1001);
  });
});
