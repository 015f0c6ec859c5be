// A re-render that is stopped midway leaves the earlier run exactly as it was: the frames it had already
// replaced are put back byte for byte, and nothing of the stopped run stays.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, listDir, queueSession, run } from '../../helpers/queue.js';
import type { JobResult } from '../../../src/render/queue/service.js';

async function hashes(dir: string): Promise<Record<string, string>> {
  const names = await listDir(dir);
  const sums = await Promise.all(
    names.map(async (n) =>
      createHash('sha256')
        .update(await readFile(join(dir, n)))
        .digest('hex'),
    ),
  );
  return Object.fromEntries(names.map((n, i) => [n, sums[i]!]));
}

describe('a stopped re-render', () => {
  it('keeps every file of the earlier run byte-identical and leaves no new file', async () => {
    const dir = await tempDir();
    const s = queueSession({ maxWorkers: 1 });
    // "slow": 30 ms a frame, time to stop midway.
    const comp = await addComp(s, { name: 'slow', frameRate: 10, duration: 4 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'b_[###].png') });
    const first = await run<JobResult>(s, 'renderQueue.render', {});
    expect(first.completed).toBe(1);
    const before = await hashes(dir);
    expect(Object.keys(before)).toHaveLength(40);

    // Another layer changes every frame's colour, so a replaced frame has other bytes.
    await run(s, 'layer.addSolid', { comp, color: '#ffffff' });
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    const off = s.renderQueue.onProgress((p) => {
      if (p.framesDone >= 10) s.renderQueue.stop();
    });
    const r = await job;
    off();
    if (!r.ok) throw new Error(r.error.message);
    expect(r.result.items[0]!.status).toBe('stopped');
    expect(await hashes(dir)).toEqual(before);
  });
});
