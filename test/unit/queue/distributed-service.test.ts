import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { freePort } from '../../helpers/redis.js';
import { addComp, listDir, queueSession, run } from '../../helpers/queue.js';
import type { JobResult } from '../../../src/render/queue/service.js';

/** A session whose render queue renders on workers through a Redis that is not there, with one item queued. */
async function onAbsentRedis() {
  const dir = await tempDir();
  const url = `redis://127.0.0.1:${await freePort()}`;
  const s = queueSession({
    distributed: {
      url,
      version: 'test',
      chunkSize: 10,
      attempts: 1,
      backoffMs: 0,
      unreachableRemedy: 'Start it.',
    },
  });
  const comp = await addComp(s, { name: 'c' });
  await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[###].png') });
  return { s, dir, url };
}

describe('a render queue that renders on workers (distributed)', () => {
  it('fails every item not_configured, naming the URL and the remedy, when Redis cannot be reached', async () => {
    const { s, dir, url } = await onAbsentRedis();
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r).toMatchObject({ completed: 0, failed: 1 });
    expect(r.items[0]!.error).toMatchObject({ code: 'not_configured', remediation: 'Start it.' });
    expect(r.items[0]!.error!.message).toContain(url);
    const list = await run<{ items: { status: string }[] }>(s, 'renderQueue.list', {});
    expect(list.items[0]!.status).toBe('failed');
    expect(await listDir(dir)).toEqual([]);
    // The service stays usable: a second render is not refused as in progress.
    expect((await run<JobResult>(s, 'renderQueue.render', {})).failed).toBe(1);
  });

  it('refuses resume:true (not built on workers) with bad_argument, before reaching Redis', async () => {
    const { s } = await onAbsentRedis();
    const r = await run<JobResult>(s, 'renderQueue.render', { resume: true });
    expect(r.items[0]!.error?.code).toBe('bad_argument');
  });
});
