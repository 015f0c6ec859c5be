/**
 * A render node whose renders run on workers (`mcp --http --redis`, docs/remote.md and docs/distributed.md):
 * the official client uploads samples, renders them on `effectcraft-cli worker` processes and fetches the output.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { streamsOf, tone } from '../helpers/audio.js';
import { startWorker, stopWorker, type Worker } from '../helpers/distributed.js';
import { untilTrue } from '../helpers/poll.js';
import { describeWithRedis, startRedis, type RedisServer } from '../helpers/redis.js';
import { tempDir } from '../helpers/tmp.js';
import { call, connect, download, sha256, startNode } from './remote-helpers.js';

interface QueueItem {
  id: string;
  status: string;
  error?: { code: string; message: string };
}

const run = (client: Client, id: string, params: Record<string, unknown>) =>
  call<Record<string, unknown>>(client, 'command_run', { id, params });

async function put(client: Client, file: string): Promise<string> {
  const bytes = await readFile(file);
  const name = file.split('/').pop()!;
  const r = await call<{ path: string }>(client, 'put_sample', {
    filename: name,
    content_b64: bytes.toString('base64'),
    sha256: sha256(bytes),
  });
  return r.path;
}

describeWithRedis('mcp --http --redis: a render node rendering on workers', () => {
  let redis: RedisServer;
  const workers: Worker[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await redis?.stop();
  });

  it('keeps the samples a running render reads after the project stops naming them', async () => {
    const media = await tempDir('ec-remote-dist-media-');
    const root = await tempDir('ec-remote-dist-root-');
    // Samples unused for 3 s are removed (the default is 30 minutes).
    const node = await startNode([
      '--automation-write-root',
      root,
      '--redis',
      redis.url,
      '--chunk-size',
      '10',
      '--upload-idle-ms',
      '3000',
    ]);
    const client = await connect(node.url);
    try {
      const sound = await put(client, await tone(media, { freq: 440, seconds: 1 }));
      // Uploaded with it and used by nothing: once it is gone, the sweep has passed the sound's idle time too.
      const witness = await put(client, await tone(media, { freq: 880, seconds: 1 }));
      await run(client, 'comp.new', { name: 'Main', width: 64, height: 36, frameRate: 30, duration: 1 });
      const footage = (await run(client, 'file.import', { path: sound })).id as string;
      const layer = (await run(client, 'layer.addFootage', { footage })).id as string;
      const output = join(root, 'out', 'a.mp4');
      await run(client, 'renderQueue.add', { comp: 'Main', output });
      // No worker yet: the render's jobs wait in Redis, and the agent edits on: the project no longer names the sound.
      await run(client, 'renderQueue.render', { wait: false });
      await run(client, 'layer.delete', { layer });
      await run(client, 'footage.remove', { footage });
      expect(await untilTrue(() => !existsSync(witness), 30_000)).toBe(true);
      expect(existsSync(sound)).toBe(true);

      workers.push(await startWorker(redis.url, ['--name', 'w1']));
      let item: QueueItem | undefined;
      await untilTrue(async () => {
        const list = (await run(client, 'renderQueue.list', {})) as { items: QueueItem[] };
        item = list.items[0];
        return item !== undefined && !['queued', 'rendering'].includes(item.status);
      }, 120_000);
      expect(item?.error).toBeUndefined();
      expect(item?.status).toBe('done');
      const local = join(media, 'a.mp4');
      await writeFile(local, (await download(client, output)).bytes);
      expect((await streamsOf(local)).map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    } finally {
      // The next tests want no worker (a render waiting for one) or their own (named in its errors).
      await Promise.all(workers.splice(0).map(stopWorker));
      await client.close();
      node.child.kill('SIGTERM');
      await node.exited;
    }
  });

  // SIGTERM of the node stops a background (wait:false) render, as over stdio: its unfinished files removed, and
  // the node exits. Before, it rendered on after the stop (locally: to its end, writing the output), and one
  // waiting for a worker kept the node from ever exiting.
  for (const onWorkers of [true, false])
    it(`a node stopped with SIGTERM stops its background render ${onWorkers ? 'waiting for a worker' : 'rendering here'}`, async () => {
      const media = await tempDir('ec-remote-stop-media-');
      const root = await tempDir('ec-remote-stop-root-');
      const node = await startNode([
        '--automation-write-root',
        root,
        ...(onWorkers ? ['--redis', redis.url, '--chunk-size', '10'] : []),
      ]);
      const client = await connect(node.url);
      const output = join(root, 'out', 'a.mp4');
      try {
        const sound = await put(client, await tone(media, { freq: 440, seconds: 1 }));
        // Long enough that a local render is still running when the node is stopped.
        await run(client, 'comp.new', {
          name: 'Main',
          width: 640,
          height: 360,
          frameRate: 30,
          duration: 600,
        });
        const footage = (await run(client, 'file.import', { path: sound })).id as string;
        await run(client, 'layer.addFootage', { footage });
        await run(client, 'renderQueue.add', { comp: 'Main', output });
        await run(client, 'renderQueue.render', { wait: false });
        if (!onWorkers)
          await untilTrue(async () => {
            const list = (await run(client, 'renderQueue.list', {})) as { items: { framesDone: number }[] };
            return (list.items[0]?.framesDone ?? 0) > 0;
          }, 60_000);
      } finally {
        await client.close();
      }
      node.child.kill('SIGTERM');
      expect(await node.exited).toBe(0);
      expect(existsSync(output)).toBe(false);
      expect(await readdir(root)).toEqual([]);
    });

  it("a worker without one of the server's roots fails the chunk naming itself, on its log too", async () => {
    const media = await tempDir('ec-remote-roots-media-');
    const root = await tempDir('ec-remote-roots-root-');
    // A read root this machine has at start-up and a worker does not (here: gone before the render).
    const extra = await tempDir('ec-remote-roots-extra-');
    const node = await startNode([
      '--automation-read-root',
      extra,
      '--automation-write-root',
      root,
      '--redis',
      redis.url,
      '--attempts',
      '1',
    ]);
    const worker = await startWorker(redis.url, ['--name', 'no-mount-7']);
    workers.push(worker);
    const client = await connect(node.url);
    try {
      const sound = await put(client, await tone(media, { freq: 440, seconds: 1 }));
      await run(client, 'comp.new', { name: 'Main', width: 64, height: 36, frameRate: 30, duration: 0.5 });
      const footage = (await run(client, 'file.import', { path: sound })).id as string;
      await run(client, 'layer.addFootage', { footage });
      await run(client, 'renderQueue.add', { comp: 'Main', output: join(root, 'out', 'a.mp4') });
      await rm(extra, { recursive: true });
      const r = await client.callTool(
        { name: 'command_run', arguments: { id: 'renderQueue.render', params: {} } },
        { timeout: 120_000 },
      );
      const item = (r.structuredContent as { items: QueueItem[] }).items[0]!;
      expect(item.status).toBe('failed');
      expect(item.error?.code).toBe('not_configured');
      expect(item.error?.message).toContain('On worker no-mount-7 (attempt 1 of 1)');
      expect(worker.log()).toContain(extra);
      await stopWorker(worker);
    } finally {
      await client.close();
      node.child.kill('SIGTERM');
      await node.exited;
    }
  });
});
