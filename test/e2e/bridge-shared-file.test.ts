/**
 * One project file open in two processes: `effectcraft-cli app --project P` (driven through `mcp --bridge`) and a
 * plain headless `effectcraft-cli mcp` that opened P too. Whoever saves second must not silently replace what
 * the other saved (src/engine/project-stamp.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { appAndClient, mcpClient, run } from './bridge-helpers.js';

const layerNames = async (path: string): Promise<string[]> => {
  const file = JSON.parse(await readFile(path, 'utf8')) as {
    items: Array<{ type: string; layers?: Array<{ name: string }> }>;
  };
  return file.items.find((i) => i.type === 'composition')!.layers!.map((l) => l.name);
};

describe('the app and a headless mcp saving one project file', () => {
  it('refuses the stale save with file_changed and keeps the other process’s work', async () => {
    const dir = await tempDir();
    const path = join(dir, 'shared.ecproj');
    const { client: first } = await mcpClient([]);
    await run(first, 'comp.new', { name: 'Main', width: 64, height: 64 });
    expect((await run(first, 'project.save', { path })).isError).toBe(false);

    const { client: bridged } = await appAndClient(dir, ['--project', path]);
    const { client: headless } = await mcpClient([]);
    await run(headless, 'project.open', { path });
    await run(headless, 'layer.addSolid', { name: 'headless work', color: 'red' });
    expect((await run(headless, 'project.save')).isError).toBe(false);

    await run(bridged, 'layer.addSolid', { name: 'app work', color: 'blue' });
    // Until 2026-12-07 this save answered ok and the file held ["app work"] only.
    const stale = await run(bridged, 'project.save');
    expect(stale).toMatchObject({ isError: true, body: { code: 'file_changed' } });
    expect(await layerNames(path)).toEqual(['headless work']);

    const other = join(dir, 'app-copy.ecproj');
    expect((await run(bridged, 'project.save', { path: other })).isError).toBe(false);
    expect(await layerNames(other)).toEqual(['app work']);
    expect(await layerNames(path)).toEqual(['headless work']);
  });
});
