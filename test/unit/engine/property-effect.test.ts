import { describe, expect, it } from 'vitest';
import type { Composition, Layer } from '../../../src/engine/index.js';
import { valueAt } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';

async function setup() {
  const engine = newEngine();
  await run(engine, 'comp.new', { width: 200, height: 100 });
  await run(engine, 'layer.addText', { text: 'Hi', name: 'T' });
  await run(engine, 'layer.addSolid', { color: '#00ff00', name: 'S' });
  const layer = (name: string) =>
    (engine.document.items[0] as Composition).layers.find((l) => l.name === name) as Layer;
  return { engine, layer };
}

describe('property commands', () => {
  it('sets static values by path and by alias, normalising vectors and colours', async () => {
    const { engine, layer } = await setup();
    await run(engine, 'property.set', { layer: 'S', property: 'transform.position', value: [10, 20] });
    await run(engine, 'property.set', { layer: 'S', property: 'scale', value: 50 });
    await run(engine, 'property.set', { layer: 'S', property: 'solid.color', value: 'blue' });
    await run(engine, 'property.set', { layer: 'T', property: 'text.text', value: 'Bye' });
    await run(engine, 'property.set', { layer: 'T', property: 'text.fontSize', value: 30 });
    await run(engine, 'property.set', { layer: 'T', property: 'text.align', value: 'left' });
    const s = layer('S');
    expect(s.transform.position.value).toEqual([10, 20]);
    expect(s.transform.scale.value).toEqual([50, 50]);
    expect(s.source.kind === 'solid' && s.source.color.value).toBe('#0000ff');
    expect(layer('T').source).toMatchObject({ text: 'Bye', fontSize: { value: 30 }, align: 'left' });
  });

  it('rejects bad values, unknown paths and properties of another layer kind', async () => {
    const { engine, layer } = await setup();
    const before = engine.document;
    expect(
      await fails(engine, 'property.set', { layer: 'S', property: 'transform.opacity', value: 150 }),
    ).toBe('bad_argument');
    expect(
      await fails(engine, 'property.set', { layer: 'S', property: 'transform.position', value: 'x' }),
    ).toBe('bad_argument');
    expect(await fails(engine, 'property.set', { layer: 'S', property: 'transform.wobble', value: 1 })).toBe(
      'bad_argument',
    );
    expect(await fails(engine, 'property.set', { layer: 'S', property: 'text.fontSize', value: 10 })).toBe(
      'bad_argument',
    );
    expect(
      await fails(engine, 'property.set', { layer: 'T', property: 'text.align', value: 'justify' }),
    ).toBe('bad_argument');
    expect(engine.document).toBe(before);
    expect(layer('S').transform.opacity.value).toBe(100);
  });

  it('sets, replaces and removes keyframes in time order', async () => {
    const { engine, layer } = await setup();
    await run(engine, 'property.setKeyframe', {
      layer: 'S',
      property: 'transform.opacity',
      time: 2,
      value: 0,
    });
    await run(engine, 'property.setKeyframe', {
      layer: 'S',
      property: 'transform.opacity',
      time: 0,
      value: 100,
      easeOut: [0.5, 0],
    });
    await run(engine, 'property.setKeyframe', {
      layer: 'S',
      property: 'transform.opacity',
      time: 1,
      value: 40,
      interpolation: 'hold',
    });
    await run(engine, 'property.setKeyframe', {
      layer: 'S',
      property: 'transform.opacity',
      time: 1,
      value: 50,
      interpolation: 'hold',
    });
    const op = layer('S').transform.opacity;
    expect(op.keyframes.map((k) => [k.time, k.value, k.interpolation])).toEqual([
      [0, 100, 'bezier'],
      [1, 50, 'hold'],
      [2, 0, 'linear'],
    ]);
    expect(valueAt(op, 1.5)).toBe(50);
    expect(
      await fails(engine, 'property.set', { layer: 'S', property: 'transform.opacity', value: 10 }),
    ).toBe('bad_argument');
    expect(
      await fails(engine, 'property.removeKeyframe', {
        layer: 'S',
        property: 'transform.opacity',
        time: 0.5,
      }),
    ).toBe('not_found');
    await run(engine, 'property.removeKeyframe', { layer: 'S', property: 'transform.opacity', time: 1 });
    await run(engine, 'property.removeKeyframe', { layer: 'S', property: 'transform.opacity', time: 0 });
    await run(engine, 'property.removeKeyframe', { layer: 'S', property: 'transform.opacity', time: 2 });
    expect(layer('S').transform.opacity).toEqual({ value: 0, keyframes: [] });
    expect(
      await fails(engine, 'property.setKeyframe', { layer: 'T', property: 'text.text', time: 0, value: 'x' }),
    ).toBe('bad_argument');
  });

  it('clearKeyframes keeps the value at a time', async () => {
    const { engine, layer } = await setup();
    await run(engine, 'property.setKeyframe', { layer: 'S', property: 'rotation', time: 0, value: 0 });
    await run(engine, 'property.setKeyframe', { layer: 'S', property: 'rotation', time: 2, value: 90 });
    await run(engine, 'property.clearKeyframes', { layer: 'S', property: 'rotation', keepValueAt: 1 });
    expect(layer('S').transform.rotation).toEqual({ value: 45, keyframes: [] });
  });

  it('animates text, stroke and effect params through paths', async () => {
    const { engine, layer } = await setup();
    await run(engine, 'property.setKeyframe', {
      layer: 'T',
      property: 'text.fill',
      time: 0,
      value: '#000000',
    });
    await run(engine, 'property.setKeyframe', {
      layer: 'T',
      property: 'text.strokeWidth',
      time: 1,
      value: 4,
    });
    const fx = await run<{ id: string }>(engine, 'effect.add', {
      layer: 'S',
      effect: 'gaussianBlur',
      params: { radius: 5 },
    });
    await run(engine, 'property.setKeyframe', {
      layer: 'S',
      property: `effects.${fx.id}.radius`,
      time: 1,
      value: 20,
    });
    const t = layer('T').source;
    expect(t.kind === 'text' && t.stroke?.width.keyframes.length).toBe(1);
    expect(layer('S').effects[0]!.params.radius).toEqual({
      value: 5,
      keyframes: [{ time: 1, value: 20, interpolation: 'linear' }],
    });
    expect(
      await fails(engine, 'property.set', { layer: 'S', property: 'effects.fx_99.radius', value: 1 }),
    ).toBe('not_found');
    expect(
      await fails(engine, 'property.set', { layer: 'S', property: `effects.${fx.id}.size`, value: 1 }),
    ).toBe('bad_argument');
  });
});

describe('effect commands', () => {
  it('adds with defaults, sets, toggles and removes', async () => {
    const { engine, layer } = await setup();
    const fx = await run<{ id: string }>(engine, 'effect.add', {
      layer: 'S',
      effect: 'dropShadow',
      params: { distance: 20, color: 'red' },
    });
    const e = layer('S').effects[0]!;
    expect(e).toMatchObject({ id: fx.id, type: 'dropShadow', enabled: true });
    expect(e.params.distance!.value).toBe(20);
    expect(e.params.color!.value).toBe('#ff0000');
    expect(e.params.opacity!.value).toBe(50);
    await run(engine, 'effect.set', { layer: 'S', effect: fx.id, params: { opacity: 80 }, enabled: false });
    expect(layer('S').effects[0]).toMatchObject({ enabled: false, params: { opacity: { value: 80 } } });
    expect(await fails(engine, 'effect.add', { layer: 'S', effect: 'sparkles' })).toBe('bad_argument');
    expect(await fails(engine, 'effect.add', { layer: 'S', effect: 'invert', params: { amount: 500 } })).toBe(
      'bad_argument',
    );
    expect(await fails(engine, 'effect.set', { layer: 'S', effect: fx.id, params: { nope: 1 } })).toBe(
      'bad_argument',
    );
    await run(engine, 'effect.remove', { layer: 'S', effect: fx.id });
    expect(layer('S').effects).toEqual([]);
  });

  it('every effect type can be added with its defaults', async () => {
    const { engine, layer } = await setup();
    const { EFFECT_TYPE_NAMES } = await import('../../../src/engine/effect-types.js');
    for (const type of EFFECT_TYPE_NAMES) await run(engine, 'effect.add', { layer: 'S', effect: type });
    expect(layer('S').effects.map((e) => e.type)).toEqual(EFFECT_TYPE_NAMES);
  });
});

describe('font families', () => {
  it('text commands refuse a family the renderer lacks, listing the available ones', async () => {
    const { Engine, engineCommands } = await import('../../../src/engine/index.js');
    const { createNodePorts } = await import('../../../src/node-io/engine-ports.js');
    const engine = new Engine({
      commands: engineCommands(),
      ports: createNodePorts(),
      fontFamilies: ['Inter'],
    });
    await run(engine, 'comp.new', { width: 10, height: 10 });
    const r = await engine.execute('layer.addText', { text: 'x', fontFamily: 'Comic Sans' });
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_argument' } });
    if (!r.ok) expect(r.error.remediation).toContain('Inter');
    await run(engine, 'layer.addText', { text: 'x', fontFamily: 'Inter', name: 'T' });
    expect(
      await fails(engine, 'property.set', { layer: 'T', property: 'text.fontFamily', value: 'Papyrus' }),
    ).toBe('bad_argument');
    await run(engine, 'property.set', { layer: 'T', property: 'text.fontFamily', value: 'Inter' });
  });

  it('text the bundled fonts cannot draw is accepted with a warning naming the characters', async () => {
    const { createSession } = await import('../../../src/session.js');
    const { engine } = createSession();
    await run(engine, 'comp.new', { width: 10, height: 10 });
    const latin = await engine.execute('layer.addText', { text: 'Café', name: 'L' });
    expect(latin.ok && latin.warnings).toBeFalsy();
    const wide = await engine.execute('layer.addText', { text: '日本 🎉', name: 'W' });
    expect(wide.ok).toBe(true);
    expect(wide.ok && wide.warnings?.[0]).toContain('日');
    const set = await engine.execute('property.set', { layer: 'L', property: 'text.text', value: 'Ω' });
    expect(set.ok && set.warnings?.[0]).toContain('Ω');
  });
});
