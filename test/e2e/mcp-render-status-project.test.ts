/**
 * renderQueue.list statuses belong to the project they were rendered in. Ids start again at 1 in every project,
 * so the same steps in a new project make an item of the same id: it read as "done", with the other project's
 * manifest, before it had rendered anything.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { RawServer } from './mcp-helpers.js';

type Listed = { id: string; status: string; output: string; manifest?: string };

describe('render queue statuses across projects', () => {
  it('lists an item of a new project as queued, though a closed project had rendered an item of its id', async () => {
    const dir = await tempDir('ec-mcp-status-');
    const s = new RawServer();
    await s.initialize();
    const run = async (id: string, command: string, params: Record<string, unknown> = {}) => {
      const r = await s.request(id, 'tools/call', {
        name: 'command_run',
        arguments: { id: command, params },
      });
      expect(r.result?.isError).toBeUndefined();
      return r.result?.structuredContent as Record<string, unknown>;
    };
    const build = async (tag: string) => {
      await run(`${tag}-comp`, 'comp.new', {
        name: 'C',
        width: 16,
        height: 16,
        frameRate: 10,
        duration: 0.2,
      });
      const added = await run(`${tag}-add`, 'renderQueue.add', {
        comp: 'C',
        output: join(dir, `${tag}_[##].png`),
      });
      return added.id as string;
    };
    const list = async (id: string) => (await run(id, 'renderQueue.list')).items as Listed[];

    const first = await build('a');
    await run('a-render', 'renderQueue.render');
    expect((await list('a-list'))[0]).toMatchObject({ id: first, status: 'done' });

    await run('new', 'project.new');
    const second = await build('b');
    expect(second).toBe(first);
    const [item] = await list('b-list');
    expect(item).toMatchObject({ id: second, status: 'queued', output: join(dir, 'b_[##].png') });
    expect(item!.manifest).toBeUndefined();

    await run('b-render', 'renderQueue.render');
    expect((await list('b-list2'))[0]).toMatchObject({ id: second, status: 'done' });
  });
});
