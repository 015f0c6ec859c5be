/**
 * Two sessions with one project file open (the app and a plain `mcp`, two agents): a save must not silently
 * overwrite what the other saved meanwhile (src/engine/project-stamp.ts).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

const layerNames = async (path: string): Promise<string[]> => {
  const file = JSON.parse(await readFile(path, 'utf8')) as {
    items: Array<{ type: string; layers?: Array<{ name: string }> }>;
  };
  return file.items.find((i) => i.type === 'composition')!.layers!.map((l) => l.name);
};

async function sharedProject(): Promise<{ path: string; a: Engine; b: Engine }> {
  const path = join(await tempDir(), 'shared.ecproj');
  const first = newEngine();
  await run(first, 'comp.new', { name: 'Main', width: 64, height: 64 });
  await run(first, 'project.save', { path });
  const a = newEngine();
  const b = newEngine();
  await run(a, 'project.open', { path });
  await run(b, 'project.open', { path });
  return { path, a, b };
}

describe('project.save and a file another session wrote', () => {
  it('refuses to overwrite the other session’s save (file_changed), and overwrite: true replaces it', async () => {
    const { path, a, b } = await sharedProject();
    await run(a, 'layer.addSolid', { name: 'from A', color: 'red' });
    await run(a, 'project.save');
    await run(b, 'layer.addSolid', { name: 'from B', color: 'blue' });
    // Until 2026-12-07 B's save replaced the file: A's "from A" was gone without a word.
    expect(await fails(b, 'project.save')).toBe('file_changed');
    expect(await fails(b, 'project.save', { path })).toBe('file_changed');
    expect(await layerNames(path)).toEqual(['from A']);
    expect(b.view.unsaved).toBe(true);

    await run(b, 'project.save', { overwrite: true });
    expect(await layerNames(path)).toEqual(['from B']);
    // B wrote the file last: its next save is its own business, and A is now the stale one.
    await run(b, 'layer.rename', { layer: 'from B', name: 'B again' });
    await run(b, 'project.save');
    expect(await fails(a, 'project.save')).toBe('file_changed');
  });

  it('lets a session save its own file again and again, and save after opening it again', async () => {
    const { path, a, b } = await sharedProject();
    for (const name of ['one', 'two', 'three']) {
      await run(a, 'layer.addSolid', { name, color: 'red' });
      await run(a, 'project.save');
    }
    expect(await fails(b, 'project.save')).toBe('file_changed');
    await run(b, 'project.open', { path });
    await run(b, 'layer.addSolid', { name: 'four', color: 'red' });
    await run(b, 'project.save');
    expect(await layerNames(path)).toEqual(['four', 'three', 'two', 'one']);
  });

  it('saves where the file was deleted, and to another path (save as)', async () => {
    const { path, a } = await sharedProject();
    await rm(path);
    await run(a, 'project.save');
    expect(await layerNames(path)).toEqual([]);
    const other = join(path, '..', 'copy.ecproj');
    await run(a, 'project.save', { path: other });
    await run(a, 'project.save');
    expect(await layerNames(other)).toEqual([]);
  });
});
