/**
 * `effectcraft-cli mcp --redis URL`: the MCP server's render queue renders through real `effectcraft-cli worker`
 * processes on a real Redis, spoken to by the official client over stdio. The frames are byte-identical to the
 * same item rendered by a server without --redis; progress notifications arrive strictly increasing; a
 * cancelled request and renderQueue.stop leave no file of the job; Redis down is a clear error, never a hang.
 */
import { copyFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { hashFiles } from '../helpers/queue.js';
import { describeWithRedis, freePort, startRedis, type RedisServer } from '../helpers/redis.js';
import { chunksTaken, startWorker, stopWorker, type Worker } from '../helpers/distributed.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';
import { connectClient, envelope, RawServer, renderSetup } from './mcp-helpers.js';
import { declaring, pollTask, type Ask } from './mcp-tasks-helpers.js';

interface ItemResult {
  id: string;
  status: string;
  frames: number;
  error?: { code: string; message: string; remediation: string };
}
interface RenderResult {
  completed: number;
  failed: number;
  stopped: number;
  items: ItemResult[];
}
interface QueueItem {
  id: string;
  status: string;
  framesDone: number;
  framesTotal: number;
  files: number;
  manifest?: string;
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

/**
 * A server (mcp with `args`) holding a copy of the sample project (in `dir`, default a new temporary folder)
 * with one item rendering to `output`.
 */
async function serverWithItem(args: string[], output: string, dir?: string): Promise<Client> {
  dir ??= await tempDir('ec-mcp-dist-project-');
  await copyFile(join(repoRoot, 'fixtures/sample/sample.ecproj'), join(dir, 'sample.ecproj'));
  const client = await connectClient('legacy', args);
  clients.push(client);
  await command(client, 'project.open', { path: join(dir, 'sample.ecproj') });
  await command(client, 'renderQueue.clear', {});
  await command(client, 'renderQueue.add', { comp: 'Sample', output });
  return client;
}

async function command(client: Client, id: string, params: Record<string, unknown>): Promise<unknown> {
  const r = await client.callTool({ name: 'command_run', arguments: { id, params } });
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent;
}

async function queueItem(client: Client): Promise<QueueItem> {
  const list = (await command(client, 'renderQueue.list', {})) as { items: QueueItem[] };
  return list.items[0]!;
}

/** Every entry under `dir`, hidden files and sub-folders included (none: the job left nothing). */
async function leftIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => []);
  return entries.sort();
}

/** How many frames (PNG files) are under `dir` so far. */
async function pngs(dir: string): Promise<number> {
  return (await leftIn(dir)).filter((n) => n.endsWith('.png')).length;
}

async function until(pred: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await pred())) await new Promise((resolve) => setTimeout(resolve, 25));
}

describeWithRedis('mcp --redis: renderQueue.render on worker processes', () => {
  let redis: RedisServer;
  let workers: Worker[];

  beforeAll(async () => {
    redis = await startRedis();
    workers = await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all((workers ?? []).map(stopWorker));
    await redis?.stop();
  });

  it('renders a PNG sequence on the workers, byte-identical to a local render, with increasing progress', async () => {
    const out = await tempDir('ec-mcp-dist-out-');
    const local = await serverWithItem([], join(out, 'local/f_[###].png'));
    const here = (await local.callTool(
      { name: 'command_run', arguments: { id: 'renderQueue.render' } },
      { timeout: 180_000 },
    )) as { structuredContent: RenderResult };
    expect(here.structuredContent.completed).toBe(1);

    const taken = chunksTaken(workers);
    const client = await serverWithItem(
      ['--redis', redis.url, '--chunk-size', '10'],
      join(out, 'dist/f_[###].png'),
    );
    const progress: number[] = [];
    const r = (await client.callTool(
      { name: 'command_run', arguments: { id: 'renderQueue.render' } },
      { timeout: 180_000, onprogress: (p) => progress.push(p.progress) },
    )) as { structuredContent: RenderResult };
    expect(r.structuredContent).toMatchObject({ completed: 1, failed: 0, stopped: 0 });
    expect(r.structuredContent.items[0]).toMatchObject({ status: 'done', frames: 75 });

    // 75 frames in chunks of 10: 8 chunks, rendered by the workers (their logs name each one).
    expect(chunksTaken(workers) - taken).toBe(8);
    const frames = (h: Record<string, string>) =>
      Object.fromEntries(Object.entries(h).filter(([n]) => !n.endsWith('.manifest.json')));
    const localFrames = frames(await hashFiles(join(out, 'local')));
    expect(Object.keys(localFrames)).toHaveLength(75);
    expect(frames(await hashFiles(join(out, 'dist')))).toEqual(localFrames);

    expect(progress.length).toBeGreaterThan(0);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]!);

    // renderQueue.list shows the item's live status as a local render would.
    expect(await queueItem(client)).toMatchObject({
      status: 'done',
      framesDone: 75,
      framesTotal: 75,
      files: 75,
      manifest: join(out, 'dist/f.png.manifest.json'),
    });
  }, 240_000);

  /** A server on the workers with the sample queued to a fresh folder, and a wait for its render's middle. */
  async function queuedOnWorkers() {
    const out = await tempDir('ec-mcp-dist-stop-');
    const client = await serverWithItem(
      ['--redis', redis.url, '--chunk-size', '10'],
      join(out, 'f_[###].png'),
    );
    const taken = chunksTaken(workers);
    // Some chunks done (frames on disk), some rendering, some still queued.
    const midRender = () => until(async () => chunksTaken(workers) - taken >= 3 && (await pngs(out)) > 0);
    return { out, client, midRender };
  }

  it('a cancelled request (notifications/cancelled) stops the chunks on every worker and leaves no file', async () => {
    const { out, client, midRender } = await queuedOnWorkers();
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'command_run', arguments: { id: 'renderQueue.render' } },
      { timeout: 180_000, signal: controller.signal },
    );
    call.catch(() => undefined);
    await midRender();
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(async () => (await queueItem(client)).status === 'stopped');
    expect(await leftIn(out)).toEqual([]);
  }, 240_000);

  it('renderQueue.stop of a background render (wait:false) leaves no file of the job', async () => {
    const { out, client, midRender } = await queuedOnWorkers();
    expect(await command(client, 'renderQueue.render', { wait: false })).toMatchObject({ started: true });
    await midRender();
    expect(await command(client, 'renderQueue.stop', {})).toEqual({ stopped: true });
    expect(await queueItem(client)).toMatchObject({ status: 'stopped' });
    expect(await leftIn(out)).toEqual([]);
    // The workers keep serving: the next render completes.
    const again = (await command(client, 'renderQueue.render', {})) as RenderResult;
    expect(again.completed).toBe(1);
  }, 240_000);

  it('tasks/cancel of a render running as a task removes exactly the files the job made', async () => {
    const dir = await tempDir('ec-mcp-dist-task-');
    await writeFile(join(dir, 'keep.txt'), 'not the render’s');
    const s = new RawServer(['--redis', redis.url, '--chunk-size', '10']);
    let n = 0;
    const ask: Ask = (method, params) => s.request(`q${++n}`, method, params);
    const setup = await ask('tools/call', {
      name: 'command_batch',
      arguments: { steps: renderSetup(dir, 300, 128) },
      _meta: envelope(),
    });
    expect(setup.result?.isError).toBeUndefined();
    const created = await ask('tools/call', {
      name: 'command_run',
      arguments: { id: 'renderQueue.render' },
      _meta: declaring(),
    });
    const taskId = created.result!.taskId as string;
    // The workers' progress reaches the task's statusMessage.
    await pollTask(ask, taskId, (t) => /frame [1-9]/.test(String(t.statusMessage)));
    await until(async () => (await pngs(dir)) > 0);
    expect((await ask('tasks/cancel', { taskId, _meta: declaring() })).error).toBeUndefined();
    expect((await pollTask(ask, taskId, () => true)).status).toBe('cancelled');
    expect(await leftIn(dir)).toEqual(['keep.txt']);
  }, 240_000);

  it('confined: the jobs carry the roots and the workers render inside them', async () => {
    const root = await tempDir('ec-mcp-dist-root-');
    const client = await serverWithItem(
      ['--redis', redis.url, '--chunk-size', '25', '--automation-write-root', root],
      join(root, 'out/f_[###].png'),
      root,
    );
    const r = (await command(client, 'renderQueue.render', {})) as RenderResult;
    expect(r.completed).toBe(1);
    expect(await pngs(join(root, 'out'))).toBe(75);
  }, 240_000);

  it('Redis gone after start: the render fails not_configured naming the URL, without hanging', async () => {
    const gone = await startRedis();
    const out = await tempDir('ec-mcp-dist-gone-');
    const client = await serverWithItem(['--redis', gone.url], join(out, 'f_[###].png'));
    await gone.stop();
    const call = await client.callTool({ name: 'command_run', arguments: { id: 'renderQueue.render' } });
    // A render whose items failed is a tool error, with the same result.
    expect(call.isError).toBe(true);
    const r = call.structuredContent as RenderResult;
    expect(r.failed).toBe(1);
    expect(r.items[0]!.error?.code).toBe('not_configured');
    expect(r.items[0]!.error?.message).toContain(gone.url);
    expect(r.items[0]!.error?.remediation).toContain('--redis');
    expect(await leftIn(out)).toEqual([]);
  }, 30_000);
});

describeWithRedis('mcp --redis: Redis lost mid-render', () => {
  it('the render fails not_configured within seconds instead of waiting for ever', async () => {
    const lost = await startRedis();
    const worker = await startWorker(lost.url);
    try {
      const out = await tempDir('ec-mcp-dist-lost-');
      const client = await serverWithItem(
        ['--redis', lost.url, '--chunk-size', '5'],
        join(out, 'f_[###].png'),
      );
      const call = client.callTool(
        { name: 'command_run', arguments: { id: 'renderQueue.render' } },
        { timeout: 120_000 },
      );
      await until(async () => chunksTaken([worker]) >= 2);
      await lost.stop();
      const r = await call;
      expect(r.isError).toBe(true);
      const item = (r.structuredContent as RenderResult).items[0]!;
      expect(item.status).toBe('failed');
      expect(item.error?.code).toBe('not_configured');
      expect(item.error?.message).toContain(lost.url);
      expect(await queueItem(client)).toMatchObject({ status: 'failed' });
    } finally {
      await stopWorker(worker);
      await lost.stop();
    }
  }, 60_000);
});

describeWithRedis('mcp --redis at start', () => {
  it('Redis unreachable: exit 1, the URL and the remedy on stderr, nothing on stdout', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const r = await runCli(['mcp', '--redis', url], { timeoutMs: 20_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Cannot reach Redis at ${url}`);
    expect(r.stderr).toContain('redis-server --port');
  }, 30_000);

  it('usage errors: --redis with --bridge, --chunk-size without --redis, a URL that is not redis://', async () => {
    for (const args of [
      ['--redis', 'redis://127.0.0.1:1', '--bridge', '9877'],
      ['--chunk-size', '10'],
      ['--redis', 'http://127.0.0.1:6379'],
    ]) {
      const r = await runCli(['mcp', ...args], { timeoutMs: 20_000 });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  }, 60_000);
});
