/**
 * One component of an [x, y] property (`dimension`): the other component is read when the edit runs, so two
 * editors changing x and y at once (a person in the studio, an agent) both keep their change.
 */
import { describe, expect, it } from 'vitest';
import { fails, newEngine, run } from '../../helpers/engine.js';

async function withLayer() {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'C', width: 200, height: 100 });
  const layer = await run<{ id: string }>(engine, 'layer.addSolid', { color: '#ff0000' });
  return { engine, layer: layer.id };
}

const position = (engine: ReturnType<typeof newEngine>) => {
  const comp = engine.document.items[0] as {
    layers: Array<{ transform: { position: { value: unknown; keyframes: Array<{ value: unknown }> } } }>;
  };
  return comp.layers[0]!.transform.position;
};

describe('property.set with dimension', () => {
  it('changes x or y alone, keeping the other as the document has it', async () => {
    const { engine, layer } = await withLayer();
    await run(engine, 'property.set', { layer, property: 'transform.position', value: [10, 20] });
    await run(engine, 'property.set', { layer, property: 'transform.position', dimension: 'x', value: 70 });
    expect(position(engine).value).toEqual([70, 20]);
    await run(engine, 'property.set', { layer, property: 'transform.position', dimension: 'y', value: 5 });
    expect(position(engine).value).toEqual([70, 5]);
  });

  it('keeps both of two concurrent one-component edits', async () => {
    const { engine, layer } = await withLayer();
    await Promise.all([
      run(engine, 'property.set', { layer, property: 'transform.position', dimension: 'x', value: 1 }),
      run(engine, 'property.set', { layer, property: 'transform.position', dimension: 'y', value: 2 }),
    ]);
    expect(position(engine).value).toEqual([1, 2]);
  });

  it('refuses dimension on a property that is not [x, y], and a non-number value', async () => {
    const { engine, layer } = await withLayer();
    expect(
      await fails(engine, 'property.set', {
        layer,
        property: 'transform.rotation',
        dimension: 'x',
        value: 1,
      }),
    ).toBe('bad_argument');
    expect(
      await fails(engine, 'property.set', {
        layer,
        property: 'transform.position',
        dimension: 'x',
        value: [1, 2],
      }),
    ).toBe('bad_argument');
    expect(position(engine).value).toEqual([100, 50]);
  });
});

describe('property.setKeyframe with dimension', () => {
  it('keeps the other component of the value at that time (an existing keyframe, or the interpolated value)', async () => {
    const { engine, layer } = await withLayer();
    await run(engine, 'property.setKeyframe', {
      layer,
      property: 'transform.position',
      time: 0,
      value: [0, 0],
    });
    await run(engine, 'property.setKeyframe', {
      layer,
      property: 'transform.position',
      time: 2,
      value: [100, 40],
    });
    await run(engine, 'property.setKeyframe', {
      layer,
      property: 'transform.position',
      time: 2,
      dimension: 'x',
      value: 50,
    });
    await run(engine, 'property.setKeyframe', {
      layer,
      property: 'transform.position',
      time: 1,
      dimension: 'y',
      value: 99,
    });
    expect(position(engine).keyframes.map((k) => k.value)).toEqual([
      [0, 0],
      [25, 99],
      [50, 40],
    ]);
  });
});
