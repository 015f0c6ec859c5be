// A layer's sound settings: audio.level through the property commands (range, keyframes, created on first
// write, one undo step), and layer.setAudioMuted (only where there can be sound).
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Composition } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

async function withLayers() {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'Inner', width: 8, height: 8, frameRate: 10, duration: 1 });
  await run(engine, 'comp.new', { name: 'Main', width: 8, height: 8, frameRate: 10, duration: 1 });
  const { id: pre } = await run<{ id: string }>(engine, 'layer.addPrecomp', {
    comp: 'Main',
    source: 'Inner',
  });
  const { id: solid } = await run<{ id: string }>(engine, 'layer.addSolid', {
    comp: 'Main',
    color: '#ff0000',
  });
  const layerOf = (id: string) =>
    engine.document.items
      .filter((i): i is Composition => i.type === 'composition')
      .flatMap((c) => c.layers)
      .find((l) => l.id === id)!;
  return { engine, pre, solid, layerOf };
}

describe('layer audio', () => {
  it('audio.level is set and keyframed in dB within -96..+24, created by the first write', async () => {
    const { engine, pre, layerOf } = await withLayers();
    expect(layerOf(pre).audio).toBeUndefined();
    await run(engine, 'property.set', { comp: 'Main', layer: pre, property: 'audio.level', value: -6 });
    expect(layerOf(pre).audio).toEqual({ level: { value: -6, keyframes: [] }, muted: false });
    await run(engine, 'property.setKeyframe', {
      comp: 'Main',
      layer: pre,
      property: 'audio.level',
      time: 0.5,
      value: -96,
    });
    expect(layerOf(pre).audio!.level.keyframes).toHaveLength(1);
    for (const value of [-97, 25])
      expect(
        await fails(engine, 'property.set', { comp: 'Main', layer: pre, property: 'audio.level', value }),
      ).toBe('bad_argument');
    await run(engine, 'edit.undo');
    await run(engine, 'edit.undo');
    expect(layerOf(pre).audio).toBeUndefined();
  });

  it('audio.level on a solid is refused naming the layer kinds that have it', async () => {
    const { engine, solid } = await withLayers();
    const r = await engine.execute('property.set', {
      comp: 'Main',
      layer: solid,
      property: 'audio.level',
      value: -6,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/belongs to footage and precomp layers; ".+" is a solid layer\./);
      expect(r.error.remediation).toContain('property.set');
    }
  });

  it('layer.setAudioMuted mutes footage and precomp layers, in one undo step, and refuses a solid', async () => {
    const { engine, pre, solid, layerOf } = await withLayers();
    await run(engine, 'layer.setAudioMuted', { comp: 'Main', layer: pre, muted: true });
    expect(layerOf(pre).audio).toEqual({ level: { value: 0, keyframes: [] }, muted: true });
    await run(engine, 'edit.undo');
    expect(layerOf(pre).audio).toBeUndefined();
    expect(await fails(engine, 'layer.setAudioMuted', { comp: 'Main', layer: solid, muted: true })).toBe(
      'bad_argument',
    );
    expect(
      await fails(engine, 'property.set', { comp: 'Main', layer: solid, property: 'audio.level', value: 0 }),
    ).toBe('bad_argument');
  });

  it('refuses muting or levelling footage without sound (a still), naming why', async () => {
    const { engine } = await withLayers();
    const path = join(await tempDir(), 'still.png');
    await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00ff00' } })
      .png()
      .toFile(path);
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path });
    const { id: still } = await run<{ id: string }>(engine, 'layer.addFootage', { comp: 'Main', footage });
    const r = await engine.execute('layer.setAudioMuted', { comp: 'Main', layer: still, muted: true });
    expect(r.ok ? 'ok' : r.error.code).toBe('bad_argument');
    if (!r.ok) expect(r.error.message).toMatch(/with no sound: there is nothing to mute or level/);
    const level = { comp: 'Main', layer: still, property: 'audio.level' };
    expect(await fails(engine, 'property.set', { ...level, value: -6 })).toBe('bad_argument');
    expect(await fails(engine, 'property.setKeyframe', { ...level, time: 0, value: -6 })).toBe(
      'bad_argument',
    );
  });
});

describe('layer settings asked of property.set', () => {
  it.each([
    ['audio.muted', 'layer.setAudioMuted'],
    ['audio.stream', 'layer.setAudioStream'],
    ['time.speed', 'layer.setTimeMap'],
    ['loop', 'layer.setTimeMap'],
    ['outPoint', 'layer.setTiming'],
    ['blendMode', 'layer.setBlendMode'],
  ])('%s: the error names the command that sets it, and nothing changes', async (property, command) => {
    const { engine, pre } = await withLayers();
    const before = JSON.stringify(engine.document);
    const r = await engine.execute('property.set', { comp: 'Main', layer: pre, property, value: true });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_argument');
    expect(r.error.message).toContain('not an animatable property');
    expect(r.error.remediation).toContain(command);
    expect(JSON.stringify(engine.document)).toBe(before);
  });
});
