/**
 * The assembly of a video item rendered in segments with sound (one worker mixes the whole item's sound and
 * joins the segments: seconds of ffmpeg for a long composition), through a real Redis and real worker
 * processes: a stopped render kills that work and leaves no file, a worker shut down in the middle of it
 * hands it to another worker, and the sound is encoded as the item asks (its codec and bitrate).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect } from 'vitest';
import {
  cliUntil,
  framemd5,
  loopedToneProject,
  startWorker,
  stopWorker,
  toneProject,
  type Worker,
} from '../helpers/distributed.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { describeWithRedis, startRedis, type RedisServer } from '../helpers/redis.js';
import { ffmpegChildren, runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * Command lines of every live ffmpeg on the machine started by process `pid` (orphans included: they read
 * through its descriptors, /proc/PID/fd/N, media-file.ts) or writing under `dir`.
 */
function ffmpegOf(pid: number, dir: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')];
      } catch {
        return [];
      }
    })
    .filter((cmd) => /(^|\/)ffmpeg /.test(cmd) && (cmd.includes(`/proc/${pid}/fd/`) || cmd.includes(dir)));
}

/** 300 s of a looped tone: its AAC encode at assembly takes seconds, the picture's three chunks a moment. */
const SECONDS = 300;
const joining = (w: Worker) => /joining 3 segments, its sound mixed/.test(w.log());

describeWithRedis('the assembly of segments with sound (render --redis)', () => {
  let redis: RedisServer | undefined;
  let workers: Worker[] = [];

  afterEach(async () => {
    await Promise.all(workers.map(stopWorker));
    await redis?.stop();
    workers = [];
  });

  async function farm(count: number, { loop = true } = {}): Promise<{ dir: string; render: string[] }> {
    redis = await startRedis();
    workers = await Promise.all(Array.from({ length: count }, () => startWorker(redis!.url)));
    const dir = await tempDir();
    await loopedToneProject(dir, SECONDS, { loop });
    const render = ['render', 'long.ecproj', '--comp', 'Long', '--output', 'dist/v.mp4'];
    return { dir, render: [...render, '--redis', redis.url, '--chunk-size', '100'] };
  }

  itWithFfmpeg(
    'Ctrl-C while a worker mixes and joins: exit 130 at once, its ffmpeg killed, no file left (output, mix, temporaries)',
    async () => {
      const { dir, render } = await farm(1);
      const r = await cliUntil(render, dir, () => joining(workers[0]!), workers);
      expect(r.code).toBe(130);
      expect(r.stdout).toMatch(/0 done, 0 failed, 1 stopped/);
      expect(workers[0]!.log()).toMatch(/cancelled by the render/);
      // Killed, not waited for: nothing of the mix or the join runs on after the render has ended.
      expect(ffmpegChildren(workers[0]!.child.pid!)).toEqual([]);
      expect(await readdir(join(dir, 'dist')).catch(() => [])).toEqual([]);
      // A join left running would have written its output by now.
      await sleep(3000);
      expect(await readdir(join(dir, 'dist')).catch(() => [])).toEqual([]);
    },
    180_000,
  );

  itWithFfmpeg(
    'while a worker mixes and joins, the log says so and not that the item is done',
    async () => {
      // Until 2026-12-07 the log read "300/300 frames  done" as the last chunk ended, then nothing while the
      // assembly ran (an hour of composition: 106 s of silence after "done in 49s").
      const { dir, render } = await farm(1);
      let since = 0;
      const r = await cliUntil(
        render,
        dir,
        () => {
          if (!joining(workers[0]!)) return false;
          since ||= Date.now();
          return Date.now() - since > 300;
        },
        workers,
      );
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).not.toMatch(/300\/300 frames {2}done/);
      expect(r.stderr).toMatch(
        /Every frame of rq_\d+ is rendered: a worker is joining its 3 segments and mixing its sound\./,
      );
    },
    180_000,
  );

  itWithFfmpeg(
    'a worker shut down while it joins hands the assembly back: another worker joins, the output has its whole picture and sound',
    async () => {
      const { dir, render } = await farm(2);
      let stopping: Promise<void> | null = null;
      const r = await cliUntil(
        render,
        dir,
        () => {
          const victim = workers.find(joining);
          if (victim && !stopping) stopping = stopWorker(victim);
          return false;
        },
        workers,
      );
      await stopping;
      expect(stopping).not.toBeNull();
      expect(r.code).toBe(0);
      // Both workers joined: the first was stopped in the middle, the second finished it.
      expect(workers.filter(joining)).toHaveLength(2);
      expect(await readdir(join(dir, 'dist'))).toEqual(['v.mp4', 'v.mp4.manifest.json']);
      const streams = execFileSync(
        'ffprobe',
        [
          '-v',
          'error',
          '-show_entries',
          'stream=codec_type,duration',
          '-of',
          'csv=p=0',
          join(dir, 'dist/v.mp4'),
        ],
        { encoding: 'utf8' },
      );
      const durations = Object.fromEntries(
        streams
          .trim()
          .split('\n')
          .map((l) => l.split(','))
          .map(([type, d]) => [type, Number(d)]),
      );
      expect(durations.video).toBeCloseTo(SECONDS, 1);
      expect(durations.audio).toBeCloseTo(SECONDS, 1);
    },
    180_000,
  );

  itWithFfmpeg(
    'a worker killed outright (SIGKILL) while it mixes: its ffmpeg dies with it, another worker assembles, nothing of the first is left',
    async () => {
      // A sound file as long as the item, not looped: the mix's ffmpeg reads it itself, fed nothing by the
      // worker, and so did not end with it.
      const { dir, render } = await farm(2, { loop: false });
      const dist = join(dir, 'dist');
      const mixing = async () =>
        (await readdir(dist).catch(() => [])).some((f) => /\.mix\.wav\..*\.part$/.test(f));
      let victim: Worker | undefined;
      let orphans: string[] | null = null;
      const rendering = cliUntil(render, dir, () => false, workers);
      while (!victim) {
        const candidate = workers.find(joining);
        if (candidate && (await mixing())) victim = candidate;
        else await sleep(20);
      }
      victim.child.kill('SIGKILL');
      // The kernel kills its children with it (setpriv's parent-death signal): none of its ffmpeg runs on.
      // (Left alone, this mix ran on for about a second more; a long item's, for minutes.)
      await sleep(150);
      orphans = ffmpegOf(victim.child.pid!, dir);
      const r = await rendering;
      expect(orphans).toEqual([]);
      expect(r.code).toBe(0);
      // The other worker assembled, after removing what the killed one left (its mix's temporary).
      expect(workers.filter(joining)).toHaveLength(2);
      expect((await readdir(dist)).sort()).toEqual(['v.mp4', 'v.mp4.manifest.json']);
    },
    240_000,
  );

  itWithFfmpeg(
    "the item's sound codec and bitrate (AAC in a MOV) are the assembly's too: the audio frames equal a local render's",
    async () => {
      redis = await startRedis();
      workers = [await startWorker(redis.url)];
      const dir = await tempDir();
      await toneProject(dir);
      const common = [
        'render',
        's.ecproj',
        '--comp',
        'Spot',
        '--audio-codec',
        'aac',
        '--audio-bitrate',
        '96',
      ];
      expect(
        (await runCli([...common, '--output', 'local/v.mov'], { cwd: dir, timeoutMs: 120_000 })).code,
      ).toBe(0);
      const dist = await runCli(
        [...common, '--output', 'dist/v.mov', '--redis', redis.url, '--chunk-size', '10'],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(0);
      expect(workers[0]!.log()).toMatch(/joining 3 segments, its sound mixed/);
      const audio = (path: string) => framemd5(join(dir, path)).filter((l) => l.startsWith('1,'));
      expect(audio('dist/v.mov').length).toBeGreaterThan(100);
      expect(audio('dist/v.mov')).toEqual(audio('local/v.mov'));
      const codec = execFileSync(
        'ffprobe',
        [
          '-v',
          'error',
          '-select_streams',
          'a',
          '-show_entries',
          'stream=codec_name',
          '-of',
          'csv=p=0',
          join(dir, 'dist/v.mov'),
        ],
        { encoding: 'utf8' },
      );
      expect(codec.trim()).toBe('aac');
    },
    180_000,
  );
});
