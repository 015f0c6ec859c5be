/**
 * A distributed render that replaces an earlier render's frames and is stopped puts the earlier frames back,
 * as a local render does (FileTracker): the chunks that completed before the stop had replaced theirs, and
 * the coordinator puts back what they kept aside. Real Redis, two `effectcraft-cli worker` processes.
 */
import { expect, it } from 'vitest';
import { join } from 'node:path';
import { chunksTaken, cliUntil, redisWithWorkers, templateProject } from '../helpers/distributed.js';
import { hashFiles } from '../helpers/queue.js';
import { describeWithRedis } from '../helpers/redis.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

describeWithRedis('a stopped distributed render over an earlier render', () => {
  const redis = redisWithWorkers();
  const workers = redis.workers;

  it('Ctrl-C after some chunks replaced frames: every earlier frame and the manifest are back, byte-identical, and no hidden file is left', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, { seconds: 6 });
    const render = ['render', project, '--comp', 'T', '--output', 'out/t_[##].png'];
    const local = await runCli([...render, '--props', '{"accent": "#ff0000"}'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(local.code).toBe(0);
    const before = await hashFiles(join(dir, 'out'));
    // 60 frames and a manifest.
    expect(Object.keys(before)).toHaveLength(61);
    const taken = chunksTaken(workers);
    const r = await cliUntil(
      [...render, '--props', '{"accent": "#0000ff"}', '--redis', redis.url, '--chunk-size', '2'],
      dir,
      // Two workers taking one chunk at a time: by the 7th chunk taken, at least 5 have completed, each
      // having replaced 2 earlier frames with blue ones.
      () => chunksTaken(workers) - taken >= 7,
      workers,
    );
    expect(r.code).toBe(130);
    expect(r.stdout).toMatch(/0 done, 0 failed, 1 stopped/);
    // hashFiles lists hidden names too: a frame kept aside and not put back, or a temporary, would show.
    expect(await hashFiles(join(dir, 'out'))).toEqual(before);
  }, 180_000);

  it('a complete re-render replaces every frame and leaves none of the earlier ones kept aside', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir);
    const render = ['render', project, '--comp', 'T', '--output', 'out/t_[##].png'];
    expect(
      (await runCli([...render, '--props', '{"accent": "#ff0000"}'], { cwd: dir, timeoutMs: 120_000 })).code,
    ).toBe(0);
    const blue = ['--props', '{"accent": "#0000ff"}'];
    expect(
      (await runCli([...render, ...blue, '--output', 'ref/t_[##].png'], { cwd: dir, timeoutMs: 120_000 }))
        .code,
    ).toBe(0);
    const dist = await runCli([...render, ...blue, '--redis', redis.url, '--chunk-size', '3'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(dist.code).toBe(0);
    const frames = (h: Record<string, string>) =>
      Object.fromEntries(Object.entries(h).filter(([n]) => !n.endsWith('.manifest.json')));
    // Exactly the 10 blue frames (a local render's), no hidden name beside them.
    expect(frames(await hashFiles(join(dir, 'out')))).toEqual(frames(await hashFiles(join(dir, 'ref'))));
  }, 180_000);
});
