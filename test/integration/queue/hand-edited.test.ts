// What add refuses never reaches a render: a project file holding it is refused whole (the session keeps its
// unsaved work and renders on), and an item made invalid after it was added fails alone, with a clear error.
import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { projectWith } from '../../helpers/projects.js';
import { addComp, failCode, listDir, queueSession, run } from '../../helpers/queue.js';
import type { JobResult } from '../../../src/render/queue/service.js';

describe('hand-edited render queue items', () => {
  it('project.open refuses a billion-frame item; the unsaved session renders on', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'unsaved' });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'mine_[##].png') });
    const before = s.engine.document;
    const path = join(dir, 'huge.ecproj');
    await writeFile(path, projectWith({ output: 'out/o_[##].png', frameRange: { start: 0, end: 1e9 } }));
    const opened = await s.engine.execute('project.open', { path });
    expect(opened).toMatchObject({ ok: false, error: { code: 'invalid_project' } });
    if (!opened.ok) expect(opened.error.message).toContain('renderQueue[0].frameRange');
    expect(s.engine.document).toBe(before);
    expect(await run(s, 'renderQueue.render', { wait: false })).toMatchObject({ started: true });
    await s.renderQueue.idle();
    const list = await run<{ items: Array<{ status: string }> }>(s, 'renderQueue.list');
    expect(list.items.map((i) => i.status)).toEqual(['done']);
    expect(await listDir(dir)).toEqual([
      'huge.ecproj',
      'mine.png.manifest.json',
      ...Array.from({ length: 10 }, (_, i) => `mine_0${i}.png`),
    ]);
  });

  it('shortening a composition below a queued item is refused (the project stays valid); both items render', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const shortened = await addComp(s, { name: 'shortened' });
    const other = await addComp(s, { name: 'other' });
    await run(s, 'renderQueue.add', {
      comp: shortened,
      output: join(dir, 'a_[##].png'),
      frameRange: { start: 0, end: 9 },
    });
    await run(s, 'renderQueue.add', { comp: other, output: join(dir, 'b_[##].png') });
    expect(await failCode(s, 'comp.setSettings', { comp: shortened, duration: 0.5 })).toBe('bad_argument');
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.items.map((i) => i.status)).toEqual(['done', 'done']);
    expect((await listDir(dir)).filter((n) => n.startsWith('a_'))).toHaveLength(10);
  });
});
