/**
 * Properties whose part of the layer does not exist yet: the stroke of a text or shape layer made without one,
 * the fill of a shape made with `fill: null`. Reading them changes nothing (documents are frozen); the first
 * write creates the part inside the edit, as one undo step.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Composition, Engine, Layer } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

const STROKES = [
  { layer: 'T', property: 'text.strokeWidth', value: 3, stored: 3 },
  { layer: 'T', property: 'text.strokeColor', value: 'red', stored: '#ff0000' },
  { layer: 'S', property: 'shape.strokeWidth', value: 4, stored: 4 },
  { layer: 'S', property: 'shape.strokeColor', value: 'blue', stored: '#0000ff' },
  { layer: 'S', property: 'shape.fillColor', value: 'lime', stored: '#00ff00' },
];

async function setup() {
  const engine = newEngine();
  await run(engine, 'comp.new', { width: 64, height: 64 });
  await run(engine, 'layer.addText', { text: 'Hi', name: 'T' });
  await run(engine, 'layer.addShape', { shape: { type: 'ellipse', size: [10, 10] }, fill: null, name: 'S' });
  return engine;
}

const layer = (engine: Engine, name: string) =>
  (engine.document.items[0] as Composition).layers.find((l) => l.name === name) as Layer;

/** The stroke or fill part a property path lives in, as stored on the layer. */
function part(l: Layer, property: string): unknown {
  const s = l.source as { stroke?: unknown; fill?: unknown };
  return property.endsWith('fillColor') ? s.fill : s.stroke;
}

/** The animatable property itself. */
function prop(l: Layer, property: string): { value: unknown; keyframes: unknown[] } {
  const p = part(l, property) as Record<string, { value: unknown; keyframes: unknown[] }>;
  return property.endsWith('Width') ? p.width! : p.color!;
}

describe('a stroke or fill the layer does not have yet', () => {
  it('property.set creates it with the value, as one undo step', async () => {
    for (const c of STROKES) {
      const engine = await setup();
      const before = engine.document;
      expect(part(layer(engine, c.layer), c.property)).toBeNull();
      await run(engine, 'property.set', { layer: c.layer, property: c.property, value: c.value });
      expect(prop(layer(engine, c.layer), c.property)).toEqual({ value: c.stored, keyframes: [] });
      await run(engine, 'edit.undo');
      expect(engine.document).toEqual(before);
    }
  });

  it('property.setKeyframe creates it with the keyframe', async () => {
    for (const c of STROKES) {
      const engine = await setup();
      const r = await run<{ keyframes: number }>(engine, 'property.setKeyframe', {
        layer: c.layer,
        property: c.property,
        time: 1,
        value: c.value,
      });
      expect(r.keyframes).toBe(1);
      expect(prop(layer(engine, c.layer), c.property).keyframes).toEqual([
        { time: 1, value: c.stored, interpolation: 'linear' },
      ]);
    }
  });

  it('a refused write changes nothing and creates nothing', async () => {
    const bad = { Width: -1, Color: 'no-such-colour' };
    for (const c of STROKES) {
      const engine = await setup();
      const before = engine.document;
      const value = c.property.endsWith('Width') ? bad.Width : bad.Color;
      for (const [id, extra] of [
        ['property.set', {}],
        ['property.setKeyframe', { time: 0 }],
      ] as const)
        expect(await fails(engine, id, { layer: c.layer, property: c.property, value, ...extra })).toBe(
          'bad_argument',
        );
      expect(engine.document).toBe(before);
      expect(part(layer(engine, c.layer), c.property)).toBeNull();
    }
  });

  it('reads (removeKeyframe, clearKeyframes, inspect) see the default and change nothing', async () => {
    for (const c of STROKES) {
      const engine = await setup();
      const before = engine.document;
      expect(
        await fails(engine, 'property.removeKeyframe', { layer: c.layer, property: c.property, time: 0 }),
      ).toBe('not_found');
      const cleared = await run<{ value: unknown }>(engine, 'property.clearKeyframes', {
        layer: c.layer,
        property: c.property,
      });
      expect(cleared.value).toEqual(
        c.property.endsWith('fillColor') ? '#ffffff' : c.property.endsWith('Width') ? 0 : '#000000',
      );
      const inspected = await run<{ activeComposition: { layers: { name: string; source: object }[] } }>(
        engine,
        'project.inspect',
      );
      const source = inspected.activeComposition.layers.find((l) => l.name === c.layer)!.source;
      expect(source).toMatchObject(c.property.endsWith('fillColor') ? { fill: null } : { stroke: null });
      expect(engine.document).toBe(before);
      expect(engine.undoSteps()).toHaveLength(3);
    }
  });

  it('a stroke property of the other layer kind is refused', async () => {
    const engine = await setup();
    const before = engine.document;
    for (const [layer, property] of [
      ['S', 'text.strokeWidth'],
      ['T', 'shape.strokeWidth'],
      ['T', 'shape.fillColor'],
    ])
      expect(await fails(engine, 'property.set', { layer, property, value: 1 }), property).toBe(
        'bad_argument',
      );
    expect(engine.document).toBe(before);
  });
});

describe('an effect parameter a project file left out', () => {
  it('reads as its default and is created by the first write', async () => {
    const engine = await setup();
    await run(engine, 'effect.add', { layer: 'T', effect: 'gaussianBlur' });
    const path = join(await tempDir(), 'p.ecproj');
    await run(engine, 'project.save', { path });
    const file = JSON.parse(await readFile(path, 'utf8')) as {
      items: { layers: { effects: { params: Record<string, unknown> }[] }[] }[];
    };
    delete file.items[0]!.layers.find((l) => l.effects.length)!.effects[0]!.params.radius;
    await writeFile(path, JSON.stringify(file));
    await run(engine, 'project.open', { path });
    const before = engine.document;
    const property = 'effects.gaussianBlur.radius';
    expect(await fails(engine, 'property.removeKeyframe', { layer: 'T', property, time: 0 })).toBe(
      'not_found',
    );
    expect(await run(engine, 'property.clearKeyframes', { layer: 'T', property })).toMatchObject({
      value: 10,
    });
    expect(engine.document).toBe(before);
    await run(engine, 'property.setKeyframe', { layer: 'T', property, time: 0, value: 5 });
    expect(layer(engine, 'T').effects[0]!.params.radius).toEqual({
      value: 10,
      keyframes: [{ time: 0, value: 5, interpolation: 'linear' }],
    });
  });
});
