/**
 * A distributed render stores its document once in Redis, not in every chunk's job: the jobs carry the render's
 * id and their frame range, the document is read by that id, and it goes when the render ends (here stopped).
 * Real Redis and the built CLI; no worker runs, so the jobs wait in the queue to be looked at.
 */
import { expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { cliPath } from '../helpers/cli.js';
import { sampleDir, sampleOnWorkers } from '../helpers/distributed.js';
import { describeWithRedis, startRedis } from '../helpers/redis.js';

const DOC_KEYS = 'effectcraft-render:doc:*';

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeWithRedis('the document of a distributed render', () => {
  it('is stored once for the render, not in any chunk job, and removed when the render is stopped', async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url);
    const queue = new Queue('effectcraft-render', { connection: { url: redis.url } });
    try {
      const dir = await sampleDir();
      const render = spawn(process.execPath, [cliPath, ...sampleOnWorkers(redis.url, '--chunk-size', '5')], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = once(render, 'exit');
      // 75 frames in chunks of 5: 15 chunk jobs wait for a worker.
      const jobs = await until(async () => {
        const waiting = await queue.getJobs(['waiting']);
        return waiting.length === 15 ? waiting : undefined;
      }, '15 waiting chunks');
      const keys = await client.keys(DOC_KEYS);
      expect(keys).toHaveLength(1);
      const stored = JSON.parse((await client.get(keys[0]!))!) as { items: { name: string }[] };
      const saved = JSON.parse(await readFile(join(dir, 'sample.ecproj'), 'utf8')) as typeof stored;
      expect(stored.items.map((i) => i.name)).toEqual(saved.items.map((i) => i.name));
      const docBytes = (await client.get(keys[0]!))!.length;
      for (const job of jobs) {
        expect(job.data).not.toHaveProperty('doc');
        expect(keys[0]).toContain((job.data as { renderId: string }).renderId);
        // The job is its item and range: far smaller than the document it renders.
        expect(JSON.stringify(job.data).length).toBeLessThan(docBytes / 2);
      }
      render.kill('SIGINT');
      const [code] = await exited;
      expect(code).toBe(130);
      expect(await client.keys(DOC_KEYS)).toEqual([]);
    } finally {
      await queue.close();
      client.disconnect();
      await redis.stop();
    }
  }, 90_000);
});
