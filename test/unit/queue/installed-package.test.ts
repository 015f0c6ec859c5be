// Renders never write into an installed package (node_modules): the installed sample project's relative
// output would otherwise land in node_modules/effectcraft-cli/fixtures/sample/out.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, colorRendererUrl, failCode, listDir, queueSession, run } from '../../helpers/queue.js';
import { createSession } from '../../../src/session.js';
import { CLI_WORDS } from '../../../src/cli/cli-words.js';
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

describe('the refusal names the way out on the surface that raised it', () => {
  async function remedy(words?: typeof CLI_WORDS): Promise<string> {
    const s = createSession({ renderQueue: { rendererModule: colorRendererUrl, maxWorkers: 1 }, words });
    const comp = await addComp(s, { name: 'c' });
    await run(s, 'renderQueue.add', {
      comp,
      output: join(await tempDir(), 'node_modules', 'p', 'f_[#].png'),
    });
    const r = await s.engine.execute('renderQueue.render', {});
    if (r.ok) throw new Error('rendered into node_modules');
    return r.error.remediation;
  }

  it('MCP: the command that changes the output, no CLI flags', async () => {
    const text = await remedy();
    expect(text).toContain('renderQueue.update {id, output}');
    expect(text).not.toMatch(/--[a-z]/);
  });

  it('CLI: the flags, no command ids', async () => {
    const text = await remedy(CLI_WORDS);
    expect(text).toContain('--output-dir DIR');
    expect(text).not.toContain('renderQueue');
  });
});
