/**
 * Distributed rendering through a real Redis (redis-server on a free loopback port) and real
 * `effectcraft-cli worker` processes: the frames a distributed render writes are byte-identical to a local
 * render of the same item (templates' props included), with the same manifest; Redis down is a clear error;
 * a worker of another version refuses the job.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { cliPath, repoRoot } from '../helpers/cli.js';
import { newEngine, run } from '../helpers/engine.js';
import { hashFiles } from '../helpers/queue.js';
import { describeWithRedis, freePort, startRedis, type RedisServer } from '../helpers/redis.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

interface Worker {
  child: ChildProcess;
  log: () => string;
}

/** Starts `effectcraft-cli worker --redis url`; resolves once it waits for jobs. */
async function startWorker(url: string, extra: string[] = []): Promise<Worker> {
  const child = spawn(process.execPath, [cliPath, 'worker', '--redis', url, '--concurrency', '1', ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('waiting for render jobs')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}): ${log}`)));
  });
  return { child, log: () => log };
}

async function stopWorker(w: Worker): Promise<void> {
  if (w.child.exitCode !== null) return;
  const exited = once(w.child, 'exit');
  w.child.kill('SIGTERM');
  await exited;
}

/** The frames of `dir` (manifest left out: it names its own folder) with their sha256. */
async function frameHashes(dir: string): Promise<Record<string, string>> {
  const all = await hashFiles(dir);
  return Object.fromEntries(Object.entries(all).filter(([n]) => !n.endsWith('.manifest.json')));
}

/** A manifest with its paths reduced to file names, so two folders' manifests compare. */
async function manifestOf(dir: string): Promise<unknown> {
  const name = (await readdir(dir)).find((n) => n.endsWith('.manifest.json'))!;
  const m = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
    item: string;
    output: string;
    files: { path: string }[];
  };
  return {
    ...m,
    item: undefined,
    output: basename(m.output),
    files: m.files.map((f) => ({ ...f, path: basename(f.path) })),
  };
}

/** A 32x16 template with 10 frames: a bar whose colour is the input "accent" and which moves every frame. */
async function templateProject(dir: string): Promise<string> {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'T', width: 32, height: 16, frameRate: 10, duration: 1 });
  await run(engine, 'layer.addSolid', { name: 'Bar', color: '#008080', width: 8, height: 16 });
  await run(engine, 'property.setKeyframe', {
    layer: 'Bar',
    property: 'transform.position',
    time: 0,
    value: [4, 8],
  });
  await run(engine, 'property.setKeyframe', {
    layer: 'Bar',
    property: 'transform.position',
    time: 0.9,
    value: [28, 8],
  });
  await run(engine, 'input.define', {
    name: 'accent',
    type: 'color',
    bind: [{ layer: 'Bar', property: 'solid.color' }],
  });
  const path = join(dir, 'template.ecproj');
  await run(engine, 'project.save', { path });
  return path;
}

describeWithRedis('effectcraft-cli render --redis with worker processes', () => {
  let redis: RedisServer;
  let workers: Worker[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    workers = await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await redis?.stop();
  });

  it('renders the sample in chunks of 20 frames: every frame byte-identical to a local render, same manifest', async () => {
    const dir = await tempDir();
    await copyFile(join(repoRoot, 'fixtures/sample/sample.ecproj'), join(dir, 'sample.ecproj'));
    const common = ['render', 'sample.ecproj', '--comp', 'Sample'];
    const local = await runCli([...common, '--output', 'local/f_[###].png'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(local.code).toBe(0);
    const dist = await runCli(
      [...common, '--output', 'dist/f_[###].png', '--redis', redis.url, '--chunk-size', '20'],
      { cwd: dir, timeoutMs: 120_000 },
    );
    expect(dist.stderr).toMatch(/^render: .* 75\/75 frames/m);
    expect(dist.code).toBe(0);
    expect(dist.stdout).toMatch(/1 done, 0 failed/);
    const [l, d] = await Promise.all([frameHashes(join(dir, 'local')), frameHashes(join(dir, 'dist'))]);
    expect(Object.keys(d)).toHaveLength(75);
    expect(d).toEqual(l);
    expect(await manifestOf(join(dir, 'dist'))).toEqual(await manifestOf(join(dir, 'local')));
    // The chunks went through the workers (4 chunks of 20, 20, 20 and 15 frames).
    const logs = workers.map((w) => w.log()).join('');
    for (const range of ['0-19', '20-39', '40-59', '60-74']) expect(logs).toContain(`frames ${range}`);
  }, 180_000);

  it("applies a template's --props in every chunk exactly as a local render does", async () => {
    const dir = await tempDir();
    const project = await templateProject(dir);
    const common = ['render', project, '--comp', 'T', '--props', '{"accent": "#ff0000"}'];
    const local = await runCli([...common, '--output', 'local/t_[##].png'], { cwd: dir, timeoutMs: 120_000 });
    expect(local.code).toBe(0);
    const dist = await runCli(
      [...common, '--output', 'dist/t_[##].png', '--redis', redis.url, '--chunk-size', '3'],
      { cwd: dir, timeoutMs: 120_000 },
    );
    expect(dist.code).toBe(0);
    const [l, d] = await Promise.all([frameHashes(join(dir, 'local')), frameHashes(join(dir, 'dist'))]);
    expect(Object.keys(d)).toHaveLength(10);
    expect(d).toEqual(l);
    // The prop was applied: the bar is red, not the project's teal.
    const { data } = await sharp(join(dir, 'dist/t_00.png')).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(4 * (8 * 32 + 2), 4 * (8 * 32 + 2) + 3)]).toEqual([255, 0, 0]);
  }, 180_000);

  it('Redis down: render --redis and worker --redis fail at once with not-reachable and the remedy, exit 1, no files', async () => {
    const dir = await tempDir();
    await copyFile(join(repoRoot, 'fixtures/sample/sample.ecproj'), join(dir, 'sample.ecproj'));
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const r = await runCli(
      ['render', 'sample.ecproj', '--comp', 'Sample', '--output', 'out/f_[###].png', '--redis', nobody],
      { cwd: dir, timeoutMs: 30_000 },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Cannot reach Redis at ${nobody}`);
    expect(r.stderr).toMatch(/check --redis/);
    expect(await readdir(dir)).toEqual(['sample.ecproj']);
    const w = await runCli(['worker', '--redis', nobody], { timeoutMs: 30_000 });
    expect(w.code).toBe(1);
    expect(w.stderr).toContain(`Cannot reach Redis at ${nobody}`);
  }, 60_000);

  it('flags: --chunk-size needs --redis; --redis takes a redis:// URL; --resume is not distributed yet (exit 2)', async () => {
    const dir = await tempDir();
    await copyFile(join(repoRoot, 'fixtures/sample/sample.ecproj'), join(dir, 'sample.ecproj'));
    const base = ['render', 'sample.ecproj'];
    expect((await runCli([...base, '--chunk-size', '5'], { cwd: dir })).code).toBe(2);
    expect((await runCli([...base, '--redis', redis.url, '--resume'], { cwd: dir })).code).toBe(2);
    const bad = await runCli([...base, '--redis', 'http://x'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a Redis URL');
  }, 60_000);
});

describeWithRedis('a worker of another version', () => {
  it('refuses the job: the render fails naming both versions, the worker logs it, no frames', async () => {
    const redis = await startRedis();
    const other = await startWorker(redis.url, ['--as-version', '0.0.0-other']);
    try {
      const dir = await tempDir();
      await copyFile(join(repoRoot, 'fixtures/sample/sample.ecproj'), join(dir, 'sample.ecproj'));
      const r = await runCli(
        ['render', 'sample.ecproj', '--comp', 'Sample', '--output', 'out/f_[###].png', '--redis', redis.url],
        { cwd: dir, timeoutMs: 60_000 },
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/failed .*effectcraft-cli 0\.0\.0-other refused job .* sent by version \d/);
      expect(other.log()).toMatch(/effectcraft-cli 0\.0\.0-other refused job/);
      expect(await readdir(dir)).toEqual(['sample.ecproj']);
    } finally {
      await stopWorker(other);
      await redis.stop();
    }
  }, 90_000);
});
