// Renders never write into an installed package (node_modules): the installed sample project's relative
// output would otherwise land in node_modules/effectcraft-cli/fixtures/sample/out.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, failCode, listDir, queueSession, run } from '../../helpers/queue.js';
import type { JobResult } from '../../../src/render/queue/service.js';

describe('outputs inside node_modules', () => {
  it('are refused with bad_argument before anything is written; other items still render', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c' });
    const pkg = join(dir, 'node_modules', 'some-pkg');
    const { id: inside } = await run<{ id: string }>(s, 'renderQueue.add', {
      comp,
      output: join(pkg, 'out', 'f_[#].png'),
    });
    const { id: overflow } = await run<{ id: string }>(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'a', 'f_[#].png'),
      overflow: [{ dir: join(pkg, 'more') }],
    });
    const { id: mine } = await run<{ id: string }>(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'mine', 'f_[#].png'),
    });
    expect(await failCode(s, 'renderQueue.render', {})).toBe('bad_argument');
    expect(await failCode(s, 'renderQueue.render', { items: [overflow] })).toBe('bad_argument');
    expect(await failCode(s, 'renderQueue.render', { items: [inside], resume: true })).toBe('bad_argument');
    expect(await listDir(dir)).toEqual([]);
    const r = await run<JobResult>(s, 'renderQueue.render', { items: [mine] });
    expect(r.completed).toBe(1);
    expect(await listDir(dir)).toEqual(['mine']);
  });
});
