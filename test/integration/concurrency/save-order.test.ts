/**
 * A save from one caller while another caller's group is open (an MCP `batch`, a bridge group): the file must
 * hold the document between edits, never the group's half-done steps, which may yet roll back.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

const layerNames = async (path: string): Promise<string[]> => {
  const file = JSON.parse(await readFile(path, 'utf8')) as {
    items: Array<{ type: string; layers?: Array<{ name: string }> }>;
  };
  return file.items.find((i) => i.type === 'composition')!.layers!.map((l) => l.name);
};

async function saveDuringGroup(engine: Engine, path: string, commit: boolean) {
  const begun = await engine.beginGroup('Batch');
  if (!begun.ok) throw new Error(begun.error.message);
  await run(engine, 'layer.addSolid', { name: 'half of a batch', color: 'red' }, { group: begun.group });
  const saving = engine.execute('project.save', { path });
  // Until 2026-12-07 the save ran at once and wrote the group's first step, though the group then rolled back.
  await new Promise((r) => setTimeout(r, 50));
  await run(engine, 'layer.addSolid', { name: 'rest of the batch', color: 'red' }, { group: begun.group });
  await engine.endGroup(begun.group, commit);
  const saved = await saving;
  expect(saved.ok).toBe(true);
}

describe('project.save while another caller’s group is open', () => {
  it('waits for the group and writes nothing of it when it rolls back', async () => {
    const path = join(await tempDir(), 'p.ecproj');
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'Main', width: 64, height: 64 });
    await run(engine, 'layer.addSolid', { name: 'before', color: 'blue' });
    await saveDuringGroup(engine, path, false);
    expect(await layerNames(path)).toEqual(['before']);
    expect(engine.view.unsaved).toBe(false);
  });

  it('waits for the group and writes all of it when it commits', async () => {
    const path = join(await tempDir(), 'p.ecproj');
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'Main', width: 64, height: 64 });
    await saveDuringGroup(engine, path, true);
    expect(await layerNames(path)).toEqual(['rest of the batch', 'half of a batch']);
    expect(engine.view.unsaved).toBe(false);
  });

  it('runs at once as a step of the group itself', async () => {
    const path = join(await tempDir(), 'p.ecproj');
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'Main', width: 64, height: 64 });
    const r = await engine.group('Batch', async (group) => {
      await run(engine, 'layer.addSolid', { name: 'in', color: 'red' }, { group });
      return (await engine.execute('project.save', { path }, { group })).ok;
    });
    expect(r).toEqual({ ok: true, committed: true });
    expect(await layerNames(path)).toEqual(['in']);
  });
});
