// A re-render that is stopped midway leaves the earlier run exactly as it was: the frames it had already
// replaced are put back byte for byte, and nothing of the stopped run stays.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, hashFiles, queueSession, renderStoppedAt, run } from '../../helpers/queue.js';
import type { JobResult } from '../../../src/render/queue/service.js';

describe('a stopped re-render', () => {
  it('keeps every file of the earlier run byte-identical and leaves no new file', async () => {
    const dir = await tempDir();
    const s = queueSession({ maxWorkers: 1 });
    // "slow": 30 ms a frame, time to stop midway.
    const comp = await addComp(s, { name: 'slow', frameRate: 10, duration: 4 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'b_[###].png') });
    const first = await run<JobResult>(s, 'renderQueue.render', {});
    expect(first.completed).toBe(1);
    const before = await hashFiles(dir);
    // 40 frames and the manifest.
    expect(Object.keys(before)).toHaveLength(41);

    // Another layer changes every frame's colour, so a replaced frame has other bytes.
    await run(s, 'layer.addSolid', { comp, color: '#ffffff' });
    const r = await renderStoppedAt(s, 10);
    expect(r.items[0]!.status).toBe('stopped');
    expect(await hashFiles(dir)).toEqual(before);
  });
});
