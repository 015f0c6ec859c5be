import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Composition, Engine, Project } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';
// Seeded, so a failing sequence can be replayed from its seed.
import { pick, rng } from '../../helpers/fuzz.js';

type Step = (engine: Engine, r: () => number) => [string, Record<string, unknown>];

const layersOf = (e: Engine) =>
  (e.document.items.find((i) => i.id === e.document.activeComp) as Composition | undefined)?.layers ?? [];
const anyLayer = (e: Engine, r: () => number) =>
  pick(
    r,
    layersOf(e)
      .map((l) => l.id)
      .concat(['nope']),
  );

const STEPS: Step[] = [
  () => ['comp.new', { width: 64, height: 64 }],
  (e, r) => ['comp.setActive', { comp: pick(r, e.document.items.map((i) => i.id).concat(['x'])) }],
  (_e, r) => ['layer.addSolid', { color: pick(r, ['red', '#00ff00', [0, 0, 1]]) }],
  (_e, r) => ['layer.addText', { text: `t${Math.floor(r() * 100)}` }],
  () => ['layer.addShape', { shape: { type: 'ellipse', size: [10, 20] } }],
  () => ['layer.addNull', {}],
  (e, r) => ['layer.delete', { layer: anyLayer(e, r) }],
  (e, r) => ['layer.duplicate', { layer: anyLayer(e, r) }],
  (e, r) => ['layer.move', { layer: anyLayer(e, r), index: Math.floor(r() * 4) }],
  (e, r) => ['layer.setParent', { layer: anyLayer(e, r), parent: r() < 0.3 ? null : anyLayer(e, r) }],
  (e, r) => [
    'layer.setBlendMode',
    { layer: anyLayer(e, r), mode: pick(r, ['multiply', 'screen', 'normal']) },
  ],
  (e, r) => [
    'property.set',
    { layer: anyLayer(e, r), property: 'transform.position', value: [Math.floor(r() * 64), 3] },
  ],
  (e, r) => [
    'property.setKeyframe',
    {
      layer: anyLayer(e, r),
      property: 'transform.opacity',
      time: Math.floor(r() * 4),
      value: Math.floor(r() * 100),
    },
  ],
  (e, r) => [
    'property.removeKeyframe',
    { layer: anyLayer(e, r), property: 'transform.opacity', time: Math.floor(r() * 4) },
  ],
  (e, r) => ['effect.add', { layer: anyLayer(e, r), effect: pick(r, ['gaussianBlur', 'invert', 'tint']) }],
  (e, r) => [
    'renderQueue.add',
    { comp: e.document.activeComp ?? 'none', output: `/tmp/out_${Math.floor(r() * 9)}_[####].png` },
  ],
  (e, r) => ['renderQueue.remove', { id: pick(r, e.document.renderQueue.map((q) => q.id).concat(['rq_x'])) }],
  () => ['edit.undo', {}],
  () => ['edit.redo', {}],
];

describe('undo/redo', () => {
  it('each edit is one undo step; undo and redo walk the exact document states', async () => {
    const engine = newEngine();
    const s0 = engine.document;
    await run(engine, 'comp.new', { width: 10, height: 10 });
    const s1 = engine.document;
    await run(engine, 'layer.addSolid', { color: 'red' });
    const s2 = engine.document;
    await run(engine, 'edit.undo');
    expect(engine.document).toEqual(s1);
    await run(engine, 'edit.undo');
    expect(engine.document).toEqual(s0);
    await run(engine, 'edit.redo');
    await run(engine, 'edit.redo');
    expect(engine.document).toEqual(s2);
    // A new edit after undo clears the redo stack.
    await run(engine, 'edit.undo');
    await run(engine, 'layer.addNull');
    expect(engine.view.canRedo).toBe(false);
  });

  it('read-only commands and failed commands add no undo step', async () => {
    const engine = newEngine();
    await run(engine, 'comp.new', { width: 10, height: 10 });
    await run(engine, 'project.inspect');
    await run(engine, 'renderQueue.list');
    await engine.execute('layer.delete', { layer: 'missing' });
    await run(engine, 'edit.undo');
    expect(engine.view.canUndo).toBe(false);
  });

  for (const seed of [1, 7, 42, 1234]) {
    it(`random sequence (seed ${seed}): undo all gives the initial document, redo all the final one`, async () => {
      const r = rng(seed);
      const engine = newEngine();
      const initial: Project = engine.document;
      let applied = 0;
      for (let i = 0; i < 400; i++) {
        const step = pick(r, STEPS.slice(0, -2)); // random undo/redo in the middle is covered below
        const [id, params] = step(engine, r);
        const res = await engine.execute(id, params);
        if (res.ok) applied++;
      }
      expect(applied).toBeGreaterThan(100);
      const final = engine.document;
      const states: Project[] = [];
      while (engine.view.canUndo) {
        states.push(engine.document);
        await run(engine, 'edit.undo');
      }
      expect(engine.document).toEqual(initial);
      for (let i = states.length - 1; i >= 0; i--) {
        await run(engine, 'edit.redo');
        expect(engine.document).toEqual(states[i]);
      }
      expect(engine.document).toEqual(final);
      expect(engine.view.canRedo).toBe(false);
    });
  }

  it('random sequences that interleave undo and redo stay consistent', async () => {
    const r = rng(99);
    const engine = newEngine();
    const initial = engine.document;
    for (let i = 0; i < 500; i++) {
      const [id, params] = pick(r, STEPS)(engine, r);
      await engine.execute(id, params);
    }
    const final = engine.document;
    let undos = 0;
    while (engine.view.canUndo) {
      await run(engine, 'edit.undo');
      undos++;
    }
    expect(engine.document).toEqual(initial);
    for (let i = 0; i < undos; i++) await run(engine, 'edit.redo');
    expect(engine.document).toEqual(final);
  });

  it('group makes many edits one undo step, and rolls back on failure', async () => {
    const engine = newEngine();
    await run(engine, 'comp.new', { width: 10, height: 10 });
    const before = engine.document;
    const ok = await engine.group('Batch', async (group) => {
      await run(engine, 'layer.addSolid', { color: 'red' }, { group });
      await run(engine, 'layer.addNull', {}, { group });
      return true;
    });
    expect(ok).toEqual({ ok: true, committed: true });
    expect(layersOf(engine)).toHaveLength(2);
    await run(engine, 'edit.undo');
    expect(engine.document).toEqual(before);
    const failed = await engine.group('Batch', async (group) => {
      await run(engine, 'layer.addSolid', { color: 'red' }, { group });
      return false;
    });
    expect(failed).toEqual({ ok: true, committed: false });
    expect(engine.document).toEqual(before);
    expect(engine.view.canRedo).toBe(true);
  });
});

describe('unsaved work', () => {
  it('the view says whether the document differs from its file: edits, save, refused edits, open', async () => {
    const engine = newEngine();
    const dir = await tempDir();
    const path = join(dir, 'p.ecproj');
    expect(engine.view.unsaved).toBe(false);
    await run(engine, 'comp.new', { name: 'A', width: 8, height: 8 });
    expect(engine.view.unsaved).toBe(true);
    await run(engine, 'project.save', { path });
    expect(engine.view.unsaved).toBe(false);
    // A refused edit changes nothing, so nothing is unsaved.
    expect((await engine.execute('comp.new', { name: 'B', width: -1, height: 8 })).ok).toBe(false);
    expect(engine.view.unsaved).toBe(false);
    await run(engine, 'comp.new', { name: 'B', width: 8, height: 8 });
    expect(engine.view.unsaved).toBe(true);
    await run(engine, 'project.open', { path });
    expect(engine.view.unsaved).toBe(false);
  });
});
