// renderQueue.stop while a skipExisting scan of a very long composition runs: the scan looks at the job's
// signal, so stop returns promptly, and the cleanup is exact (frames from before the render stay).
import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, listDir, queueSession, run } from '../../helpers/queue.js';
import type { JobResult } from '../../../src/render/queue/service.js';

describe('renderQueue.stop during a skipExisting scan', () => {
  it('returns promptly on an 864,000-frame composition and removes nothing of the earlier run', async () => {
    const out = await tempDir();
    const spill = await tempDir();
    const s = queueSession();
    // 24 hours at 10 fps: 864,000 frames.
    const comp = await addComp(s, { name: 'long', width: 8, height: 8, frameRate: 10, duration: 86400 });
    await run(s, 'renderQueue.add', {
      comp,
      output: join(out, 'f_[######].png'),
      skipExisting: true,
      overflow: [{ dir: spill, minFreeBytes: 0 }],
    });
    await writeFile(join(out, 'f_000001.png'), 'earlier run');
    await writeFile(join(spill, 'f_000002.png'), 'earlier run');
    await writeFile(join(out, 'notes.txt'), 'not ours');

    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    await new Promise((r) => setTimeout(r, 50));
    const asked = Date.now();
    const stopped = await run<{ stopped: boolean }>(s, 'renderQueue.stop');
    // A generous bound: the scan used to run to its end (tens of seconds) before stop could return.
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(stopped.stopped).toBe(true);

    const r = await job;
    if (!r.ok) throw new Error(r.error.message);
    expect(r.result.items[0]).toMatchObject({ status: 'stopped', error: { code: 'cancelled' } });
    expect(await listDir(out)).toEqual(['f_000001.png', 'notes.txt']);
    expect(await listDir(spill)).toEqual(['f_000002.png']);
  }, 120_000);
});
