/**
 * Distributed rendering through a real Redis (redis-server on a free loopback port) and real
 * `effectcraft-cli worker` processes: the frames a distributed render writes are byte-identical to a local
 * render of the same item (templates' props included), with the same manifest; Redis down is a clear error;
 * a worker of another version refuses the job.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  chunksTaken,
  cliUntil,
  frameHashes,
  framemd5,
  keyFrames,
  manifestOf,
  pngFile,
  retries,
  sampleDir,
  sampleOnWorkers,
  sampleRenderedLocally,
  startWorker,
  stopWorker,
  templateProject,
  toneProject,
  type Worker,
} from '../helpers/distributed.js';
import { tone } from '../helpers/audio.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { newEngine, run } from '../helpers/engine.js';
import { hashFiles } from '../helpers/queue.js';
import { describeWithRedis, freePort, startRedis, type RedisServer } from '../helpers/redis.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';
import { untilTrue } from '../helpers/poll.js';

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
    const { dir, common } = await sampleRenderedLocally();
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

  itWithFfmpeg(
    'MP4 in segments of 20 frames joined without re-encoding: framemd5 of every frame (pts and hash) equals a local render, a key frame at each seam, no segment left',
    async () => {
      const { dir, common } = await sampleRenderedLocally(['--output', 'local/v.mp4', '--crf', '0']);
      const dist = await runCli(
        [...common, '--output', 'dist/v.mp4', '--crf', '0', '--redis', redis.url, '--chunk-size', '20'],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(0);
      // Lossless (CRF 0): a seam that dropped, doubled or re-encoded a frame would change its line.
      const [l, d] = [framemd5(join(dir, 'local/v.mp4')), framemd5(join(dir, 'dist/v.mp4'))];
      expect(d).toHaveLength(75);
      expect(d).toEqual(l);
      expect(keyFrames(join(dir, 'dist/v.mp4'))).toHaveLength(4);
      expect(await readdir(join(dir, 'dist'))).toEqual(['v.mp4', 'v.mp4.manifest.json']);
    },
    180_000,
  );

  itWithFfmpeg(
    "MP4 with sound: the sound is mixed once for the whole item and muxed at assembly; every video and audio frame's framemd5 equals a local render",
    async () => {
      const dir = await tempDir();
      await toneProject(dir);
      const common = ['render', 's.ecproj', '--comp', 'Spot', '--crf', '0'];
      expect(
        (await runCli([...common, '--output', 'local/v.mp4'], { cwd: dir, timeoutMs: 120_000 })).code,
      ).toBe(0);
      const dist = await runCli(
        [...common, '--output', 'dist/v.mp4', '--redis', redis.url, '--chunk-size', '10'],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(0);
      const [l, d] = [framemd5(join(dir, 'local/v.mp4')), framemd5(join(dir, 'dist/v.mp4'))];
      // Both streams: 30 video frames and the AAC frames of 3 s at 48 kHz.
      expect(d.filter((line) => line.startsWith('0,'))).toHaveLength(30);
      expect(d.filter((line) => line.startsWith('1,')).length).toBeGreaterThan(100);
      expect(d).toEqual(l);
      expect(keyFrames(join(dir, 'dist/v.mp4'))).toHaveLength(3);
      expect(await readdir(join(dir, 'dist'))).toEqual(['v.mp4', 'v.mp4.manifest.json']);
    },
    180_000,
  );

  itWithFfmpeg(
    'a sound file changed since its import fails a video item before its chunks render, naming the file and the worker',
    async () => {
      const dir = await tempDir();
      await toneProject(dir);
      // The 3 s tone re-exported shorter under the same name.
      await copyFile(await tone(await tempDir(), { freq: 440, seconds: 1 }), join(dir, 'tone-440-3.wav'));
      const dist = await runCli(
        [
          'render',
          's.ecproj',
          '--comp',
          'Spot',
          '--output',
          'dist/v.mp4',
          '--redis',
          redis.url,
          '--chunk-size',
          '10',
        ],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(1);
      // Met by a chunk's check (the assembly's failure carried no worker): nothing was drawn for nothing.
      expect(dist.stderr).toMatch(
        /On worker .*\(attempt \d of \d\): ".*tone-440-3\.wav" has changed since it was imported: its sound lasted 3\.00 s; it now lasts 1\.00 s/,
      );
      expect(await readdir(dir)).not.toContain('dist');
    },
    180_000,
  );

  itWithFfmpeg(
    'GIF is rendered whole by one worker, byte-identical to a local render',
    async () => {
      const { dir, common } = await sampleRenderedLocally(['--output', 'local/a.gif']);
      const dist = await runCli(
        [...common, '--output', 'dist/a.gif', '--redis', redis.url, '--chunk-size', '20'],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(0);
      expect(await frameHashes(join(dir, 'dist'))).toEqual(await frameHashes(join(dir, 'local')));
      expect(workers.map((w) => w.log()).join('')).toMatch(/frames 0-74\n/);
    },
    180_000,
  );

  itWithFfmpeg(
    "a row's footage that is no media, in a video with sound: the row fails unsupported_format with its remedy, as locally (not a worker's crash retried)",
    async () => {
      const dir = await tempDir();
      const project = await templateProject(dir, { logo: await pngFile(join(dir, 'logo.png'), '#ffffff') });
      // Sound: the item's video renders in segments whose sound the assembly mixes (worker.ts, segments).
      const engine = newEngine();
      await run(engine, 'project.open', { path: project });
      const { id: footage } = await run<{ id: string }>(engine, 'file.import', {
        path: await tone(dir, { freq: 440, seconds: 1 }),
      });
      await run(engine, 'layer.addFootage', { comp: 'T', footage });
      await run(engine, 'project.save', { path: project });
      await writeFile(join(dir, 'notes.txt'), 'not a picture');
      await writeFile(join(dir, 'rows.csv'), 'name,logo\nAda,logo.png\nBo,notes.txt\n');
      const common = ['render', 'template.ecproj', '--comp', 'T', '--data', 'rows.csv', '--json'];
      const local = await runCli([...common, '--output', 'local/{name}.mp4'], {
        cwd: dir,
        timeoutMs: 120_000,
      });
      const dist = await runCli(
        [...common, '--output', 'dist/{name}.mp4', '--redis', redis.url, '--chunk-size', '5'],
        { cwd: dir, timeoutMs: 120_000 },
      );
      type Report = { rows: { status: string; error?: { code: string; remediation: string } }[] };
      const [l, d] = [JSON.parse(local.stdout) as Report, JSON.parse(dist.stdout) as Report];
      expect(l.rows.map((r) => r.status)).toEqual(['done', 'failed']);
      expect(d.rows.map((r) => r.status)).toEqual(['done', 'failed']);
      expect(l.rows[1]!.error!.code).toBe('unsupported_format');
      expect(d.rows[1]!.error!.code).toBe('unsupported_format');
      expect(d.rows[1]!.error!.remediation).toBe(l.rows[1]!.error!.remediation);
      expect(dist.code).toBe(1);
    },
    180_000,
  );

  it('--data rows.csv through the workers: the rows rendered byte-identical to a local --data render, a bad row fails alone, same --json report, exit 1', async () => {
    const dir = await tempDir();
    await templateProject(dir, { logo: await pngFile(join(dir, 'logo.png'), '#ffffff') });
    await Promise.all([pngFile(join(dir, 'a.png'), '#ff0000'), pngFile(join(dir, 'c.png'), '#0000ff')]);
    // Row 2's footage does not exist: it passes the checks before rendering and fails where it renders.
    await writeFile(
      join(dir, 'rows.csv'),
      'name,accent,logo\nAda,gold,a.png\nBo,teal,gone.png\nCy,#00ff00,c.png\n',
    );
    const common = ['render', 'template.ecproj', '--comp', 'T', '--data', 'rows.csv', '--json'];
    const before = chunksTaken(workers);
    const local = await runCli([...common, '--output', 'local/{name}_[##].png'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    const dist = await runCli(
      [...common, '--output', 'dist/{name}_[##].png', '--redis', redis.url, ...retries(4, 1)],
      { cwd: dir, timeoutMs: 120_000 },
    );
    expect(local.code).toBe(1);
    expect(dist.code).toBe(1);
    // The workers rendered the rows: 3 chunks of frames (0-3, 4-7, 8-9) for each good row, 1 to 3 for the bad.
    expect(chunksTaken(workers) - before).toBeGreaterThanOrEqual(7);
    type Report = {
      completed: number;
      failed: number;
      rows: { row: number; status: string; outputs: string[]; error?: { code: string; message: string } }[];
    };
    const [l, d] = [JSON.parse(local.stdout) as Report, JSON.parse(dist.stdout) as Report];
    expect([d.completed, d.failed]).toEqual([2, 1]);
    expect(d.rows.map((r) => r.status)).toEqual(['done', 'failed', 'done']);
    expect(d.rows.map((r) => r.status)).toEqual(l.rows.map((r) => r.status));
    expect(d.rows[1]!.error!.code).toBe(l.rows[1]!.error!.code);
    expect(d.rows[1]!.error!.message).toMatch(/^Row 2 \(line 3\): On worker .*gone\.png/);
    expect(d.rows[0]!.outputs).toEqual([join(dir, 'dist/Ada_00.png')]);
    // 2 rows x 10 frames, each identical to the local render's (and the failed row left nothing).
    const [lh, dh] = await Promise.all([frameHashes(join(dir, 'local')), frameHashes(join(dir, 'dist'))]);
    expect(Object.keys(dh)).toHaveLength(20);
    expect(dh).toEqual(lh);
  }, 180_000);

  it('Ctrl-C mid-render: exit 130, the chunks rendering on workers stop, no file is left (frames, temporaries, manifest, the folder it made)', async () => {
    const dir = await sampleDir();
    const before = chunksTaken(workers);
    const r = await cliUntil(
      sampleOnWorkers(redis.url, '--chunk-size', '5'),
      dir,
      // Interrupt once the workers have taken 3 of the 15 chunks.
      () => chunksTaken(workers) - before >= 3,
      workers,
    );
    expect(r.code).toBe(130);
    expect(r.stdout).toMatch(/0 done, 0 failed, 1 stopped/);
    // Not even the folder the render made for its frames (a local render removes it too).
    expect(await readdir(dir)).toEqual(['sample.ecproj']);
    const logs = workers.map((w) => w.log()).join('');
    expect(logs).toMatch(/cancelled by the render/);
  }, 120_000);

  it('no worker listening: the render says so after 10 s and waits; Ctrl-C stops it (exit 130, no files)', async () => {
    const lonely = await startRedis();
    try {
      const dir = await sampleDir();
      const r = await cliUntil(sampleOnWorkers(lonely.url), dir, (stderr) =>
        stderr.includes('No worker is listening'),
      );
      expect(r.code).toBe(130);
      expect(r.stderr).toContain(
        `effectcraft-cli render: No worker is listening on ${lonely.url}: the render waits for one. Start \`effectcraft-cli worker --redis ${lonely.url}\``,
      );
      expect(await readdir(dir)).toEqual(['sample.ecproj']);
    } finally {
      await lonely.stop();
    }
  }, 60_000);

  it('Redis down: render --redis and worker --redis fail at once with not-reachable and the remedy, exit 1, no files', async () => {
    const dir = await sampleDir();
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const r = await runCli(sampleOnWorkers(nobody), { cwd: dir, timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Cannot reach Redis at ${nobody}`);
    expect(r.stderr).toMatch(/check --redis/);
    expect(await readdir(dir)).toEqual(['sample.ecproj']);
    const w = await runCli(['worker', '--redis', nobody], { timeoutMs: 30_000 });
    expect(w.code).toBe(1);
    expect(w.stderr).toContain(`Cannot reach Redis at ${nobody}`);
  }, 60_000);

  it('flags: --chunk-size needs --redis; --redis takes a redis:// URL; --resume is not distributed yet (exit 2)', async () => {
    const dir = await sampleDir();
    const base = ['render', 'sample.ecproj'];
    expect((await runCli([...base, '--chunk-size', '5'], { cwd: dir })).code).toBe(2);
    expect((await runCli([...base, '--redis', redis.url, '--resume'], { cwd: dir })).code).toBe(2);
    const bad = await runCli([...base, '--redis', 'http://x'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a Redis URL');
  }, 60_000);
});

describeWithRedis('Redis restarted mid-render (without persistence: the jobs are gone)', () => {
  it('the render fails not_configured within seconds naming the lost jobs, exit 1, instead of waiting for ever', async () => {
    let redis = await startRedis();
    const worker = await startWorker(redis.url);
    try {
      const dir = await sampleDir();
      let restarted = Infinity;
      // Stopped (SIGINT, exit 130) if it still waits 20 s after the restart.
      const render = cliUntil(
        [...sampleOnWorkers(redis.url, '--chunk-size', '5'), '--json'],
        dir,
        () => Date.now() - restarted > 20_000,
        [worker],
      );
      await untilTrue(() => chunksTaken([worker]) >= 2, 60_000);
      // Down for a moment only: the coordinator's PINGs are answered again, by a Redis without the flow.
      await redis.stop();
      redis = await startRedis(Number(new URL(redis.url).port));
      restarted = Date.now();
      const r = await render;
      expect(r.code).toBe(1);
      const item = (
        JSON.parse(r.stdout) as { items: { status: string; error: { code: string; message: string } }[] }
      ).items[0]!;
      expect(item.status).toBe('failed');
      expect(item.error.code).toBe('not_configured');
      expect(item.error.message).toContain(redis.url);
    } finally {
      await stopWorker(worker);
      await redis.stop();
    }
  }, 120_000);
});

describeWithRedis('a worker killed mid-chunk (SIGKILL)', () => {
  it('its chunk is handed to another worker by the stalled-job check, which the render says: every frame identical to a local render, no temporaries', async () => {
    const redis = await startRedis();
    // Short locks so the killed worker's chunk is seen stalled within seconds (default 30 s).
    const quick = ['--lock-ms', '1500', '--stalled-ms', '500'];
    const [a, b] = await Promise.all([startWorker(redis.url, quick), startWorker(redis.url, quick)]);
    try {
      const { dir, common } = await sampleRenderedLocally();
      let killed = false;
      let range = '';
      let survivor: Worker | undefined;
      const dist = cliUntil(
        [...common, '--output', 'dist/f_[###].png', '--redis', redis.url, '--chunk-size', '25'],
        dir,
        () => {
          // Kill the first worker seen holding a chunk, while it renders it.
          const victim = [a, b].find((w) => /frames \d+-\d+/.test(w.log()));
          if (victim && !killed) {
            killed = true;
            victim.child.kill('SIGKILL');
            range = /frames (\d+-\d+)/.exec(victim.log())![1]!;
            survivor = victim === a ? b : a;
          }
          return false;
        },
        [a, b],
      );
      const r = await dist;
      expect(killed).toBe(true);
      expect(r.code).toBe(0);
      // The killed worker's chunk was rendered again by the other one, and the render said why it waited.
      expect(survivor!.log()).toContain(`frames ${range}\n`);
      expect(r.stderr).toMatch(
        new RegExp(`The worker rendering frames ${range} of rq_\\d+ stopped answering`),
      );
      const [l, d] = await Promise.all([hashFiles(join(dir, 'local')), hashFiles(join(dir, 'dist'))]);
      const frames = (h: Record<string, string>) =>
        Object.fromEntries(Object.entries(h).filter(([n]) => !n.endsWith('.manifest.json')));
      // hashFiles lists hidden names too: a temporary left by the killed worker would show here.
      expect(Object.keys(frames(d))).toHaveLength(75);
      expect(frames(d)).toEqual(frames(l));
    } finally {
      await Promise.all([stopWorker(a), stopWorker(b)]);
      await redis.stop();
    }
  }, 180_000);
});

describeWithRedis('a worker of another version', () => {
  it('refuses the job: the render fails naming both versions, the worker logs it, no frames', async () => {
    const redis = await startRedis();
    const other = await startWorker(redis.url, ['--as-version', '0.0.0-other']);
    try {
      const dir = await sampleDir();
      const r = await runCli(sampleOnWorkers(redis.url), { cwd: dir, timeoutMs: 60_000 });
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

describeWithRedis('a chunk that fails with a transient error (retries)', () => {
  it('is tried again (--attempts, --backoff) and the render succeeds: every frame identical to a local render', async () => {
    const redis = await startRedis();
    const flaky = await startWorker(redis.url, ['--fail-first-chunk', '--name', 'flaky']);
    const steady = await startWorker(redis.url, ['--name', 'steady']);
    try {
      const { dir, common } = await sampleRenderedLocally();
      const dist = await runCli(
        [
          ...common,
          '--output',
          'dist/f_[###].png',
          '--redis',
          redis.url,
          ...retries(5, 2),
          '--backoff',
          '200',
        ],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(0);
      expect(dist.stdout).toMatch(/1 done, 0 failed/);
      // The flaky worker failed its first chunk; the retry went to the other worker.
      const range = /frames (\d+-\d+) failed: .*failed on purpose/.exec(flaky.log())?.[1];
      expect(range).toBeDefined();
      expect(steady.log()).toContain(`frames ${range}\n`);
      expect(flaky.log()).not.toContain(`frames ${range}\n`);
      const [l, d] = await Promise.all([frameHashes(join(dir, 'local')), frameHashes(join(dir, 'dist'))]);
      expect(Object.keys(d)).toHaveLength(75);
      expect(d).toEqual(l);
    } finally {
      await Promise.all([stopWorker(flaky), stopWorker(steady)]);
      await redis.stop();
    }
  }, 180_000);

  it('with --attempts 1 the same failure fails the item at once, naming the worker and the attempt; no frames left', async () => {
    const redis = await startRedis();
    const flaky = await startWorker(redis.url, ['--fail-first-chunk', '--name', 'flaky']);
    try {
      const dir = await sampleDir();
      const r = await runCli(sampleOnWorkers(redis.url, '--chunk-size', '25', '--attempts', '1', '--json'), {
        cwd: dir,
        timeoutMs: 60_000,
      });
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as {
        failed: number;
        items: { error: { code: string; message: string } }[];
      };
      expect(report.failed).toBe(1);
      expect(report.items[0]!.error.code).toBe('io_error');
      expect(report.items[0]!.error.message).toMatch(
        /^On worker flaky \(attempt 1 of 1\): .*failed on purpose/,
      );
      // The item's other chunks are cancelled with it: the worker, free again, renders none of them later, and
      // the folder the render made is gone (it stayed, and frames of the dead item appeared in it afterwards).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(await readdir(dir)).not.toContain('out');
    } finally {
      await stopWorker(flaky);
      await redis.stop();
    }
  }, 120_000);

  it('a worker without ffmpeg says so as it starts, naming what fails there', async () => {
    const redis = await startRedis();
    // A PATH with node alone.
    const bin = await tempDir();
    await symlink(process.execPath, join(bin, 'node'));
    const bare = await startWorker(redis.url, ['--name', 'bare'], undefined, { ...process.env, PATH: bin });
    try {
      await expect
        .poll(() => bare.log(), { timeout: 10_000 })
        .toMatch(/ffmpeg was not found on PATH: chunks of video/);
      expect(bare.log()).toMatch(/apt-get install ffmpeg/);
    } finally {
      await stopWorker(bare);
      await redis.stop();
    }
  }, 60_000);

  it('flags: --attempts and --backoff need --redis; --attempts 0 is refused (exit 2)', async () => {
    const dir = await sampleDir();
    const base = ['render', 'sample.ecproj'];
    const alone = await runCli([...base, '--attempts', '2'], { cwd: dir });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--attempts needs --redis');
    expect((await runCli([...base, '--backoff', '10'], { cwd: dir })).code).toBe(2);
    const zero = await runCli([...base, '--redis', 'redis://127.0.0.1:1', '--attempts', '0'], { cwd: dir });
    expect(zero.code).toBe(2);
  }, 60_000);
});

describeWithRedis('footage a worker cannot read', () => {
  it('the chunk fails before rendering with no_such_file naming the file and the worker, and the remedy (shared storage)', async () => {
    const redis = await startRedis();
    let late: Worker | undefined;
    try {
      const dir = await tempDir();
      const logo = await pngFile(join(dir, 'logo.png'), '#ff8800');
      await templateProject(dir, { logo });
      // The render is sent while no worker listens; the footage is gone before the only worker starts, as on a
      // machine that does not mount the share where the footage lives.
      const render = cliUntil(
        [
          'render',
          'template.ecproj',
          '--comp',
          'T',
          '--output',
          'out/l_[##].png',
          '--redis',
          redis.url,
          '--attempts',
          '1',
          '--json',
        ],
        dir,
        () => false,
      );
      const client = new Redis(redis.url);
      // The chunk is on the queue's waiting list (BullMQ's key), so the render has opened the project.
      await expect
        .poll(() => client.llen('bull:effectcraft-render:wait'), { timeout: 30_000, interval: 50 })
        .toBeGreaterThan(0);
      client.disconnect();
      await rm(logo);
      late = await startWorker(redis.url, ['--name', 'render-7']);
      const r = await render;
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as {
        items: { error: { code: string; message: string; remediation: string } }[];
      };
      const { error } = report.items[0]!;
      expect(error.code).toBe('no_such_file');
      expect(error.message).toContain('render-7');
      expect(error.message).toContain(logo);
      expect(error.remediation).toMatch(/every worker mounts at the same path/);
      // Checked before rendering: the worker never started the chunk's frames.
      expect(late.log()).not.toMatch(/frames 0-9\n/);
      expect(await readdir(join(dir, 'out')).catch(() => [])).toEqual([]);
    } finally {
      if (late) await stopWorker(late);
      await redis.stop();
    }
  }, 120_000);

  // The user "nobody" cannot enter the test's folder (mode 0700, owned by root): a real unreadable path.
  it.skipIf(process.getuid?.() !== 0)(
    'footage only one of two workers can read: the other worker fails its chunks (naming the file and itself), their retries go to the worker that can, the render succeeds',
    async () => {
      const redis = await startRedis();
      const NOBODY = 65534;
      const workers = await Promise.all([
        startWorker(redis.url, ['--name', 'can-read']),
        startWorker(redis.url, ['--name', 'cannot-read'], NOBODY),
      ]);
      const [reader, blind] = workers;
      try {
        const dir = await tempDir();
        await templateProject(dir, { logo: await pngFile(join(dir, 'logo.png'), '#ff8800') });
        const common = ['render', 'template.ecproj', '--comp', 'T'];
        const local = await runCli([...common, '--output', 'local/l_[##].png'], {
          cwd: dir,
          timeoutMs: 60_000,
        });
        expect(local.code).toBe(0);
        const dist = await runCli(
          [
            ...common,
            '--output',
            'dist/l_[##].png',
            '--redis',
            redis.url,
            '--chunk-size',
            '2',
            '--backoff',
            '100',
          ],
          { cwd: dir, timeoutMs: 120_000 },
        );
        expect(dist.code).toBe(0);
        expect(await frameHashes(join(dir, 'dist'))).toEqual(await frameHashes(join(dir, 'local')));
        // Every chunk was rendered by the worker that can read the footage; the other one only refused.
        expect(reader!.log().match(/frames \d+-\d+\n/g)).toHaveLength(5);
        expect(blind!.log()).not.toMatch(/frames \d+-\d+\n/);
        // With one attempt, a chunk taken by the blind worker fails the item, naming the file and the worker.
        await stopWorker(reader!);
        const once = await runCli(
          [...common, '--output', 'once/l_[##].png', '--redis', redis.url, '--attempts', '1', '--json'],
          { cwd: dir, timeoutMs: 60_000 },
        );
        expect(once.code).toBe(1);
        const { error } = (
          JSON.parse(once.stdout) as { items: { error: { code: string; message: string } }[] }
        ).items[0]!;
        expect(error.code).toBe('io_error');
        expect(error.message).toMatch(
          /^On worker cannot-read \(attempt 1 of 1\): Cannot read footage ".*logo\.png" on this worker: permission denied/,
        );
      } finally {
        await Promise.all(workers.map(stopWorker));
        await redis.stop();
      }
    },
    180_000,
  );
});
