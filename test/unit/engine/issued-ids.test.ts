/**
 * An id once handed out never names another item in the same project: an agent that still holds `layer_3` of
 * a step it undid (or of a batch that was rolled back) must get "not found", not a different layer. The
 * document itself goes back exactly (its counter too); only the next ids skip the ones given.
 */
import { expect, it } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';

it('an undone layer id is not given to the next layer; the document is restored exactly', async () => {
  const engine = newEngine();
  await run(engine, 'comp.new', { width: 64, height: 64 });
  const before = engine.document;
  const first = await run<{ id: string }>(engine, 'layer.addSolid', { color: 'red' });
  await run(engine, 'edit.undo');
  expect(engine.document).toEqual(before);
  const second = await run<{ id: string }>(engine, 'layer.addSolid', { color: 'blue' });
  expect(second.id).not.toBe(first.id);
  const stale = await engine.execute('layer.setBlendMode', { layer: first.id, mode: 'screen' });
  expect(stale.ok ? 'applied' : stale.error.code).toBe('not_found');
  // Redo is gone (a new edit), but undo and redo of the new layer keep its id.
  await run(engine, 'edit.undo');
  await run(engine, 'edit.redo');
  expect(engine.document.items.flatMap((i) => ('layers' in i ? i.layers.map((l) => l.id) : []))).toEqual([
    second.id,
  ]);
});

it('ids allocated by a rolled-back group are not reused', async () => {
  const engine = newEngine();
  await run(engine, 'comp.new', { width: 64, height: 64 });
  const before = engine.document;
  let given = '';
  const outcome = await engine.group('two layers', async (group) => {
    const added = await engine.execute<{ id: string }>('layer.addNull', {}, { group });
    if (added.ok) given = added.result.id;
    const bad = await engine.execute('layer.addSolid', { color: 'not a colour' }, { group });
    return bad.ok;
  });
  expect(outcome).toEqual({ ok: true, committed: false });
  expect(given).toMatch(/^layer_/);
  expect(engine.document).toEqual(before);
  const next = await run<{ id: string }>(engine, 'layer.addNull');
  expect(next.id).not.toBe(given);
});

it('a project opened replaces the counter: its ids follow the file', async () => {
  const engine = newEngine();
  await run(engine, 'comp.new', { width: 64, height: 64 });
  await run(engine, 'layer.addNull');
  await run(engine, 'edit.undo');
  await run(engine, 'project.new');
  const comp = await run<{ id: string }>(engine, 'comp.new', { width: 64, height: 64 });
  expect(comp.id).toBe('comp_1');
});
