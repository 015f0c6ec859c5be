/**
 * Video formats in segments through a real Redis and two `effectcraft-cli worker` processes: H.265 (MP4) and
 * ProRes (MOV) are encoded per chunk and joined without re-encoding. Seams are checked by per-frame hashes
 * and exact packet times, never by frame counts (a duplicated frame keeps the count right).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  framemd5,
  sampleRenderedLocally,
  startWorker,
  stopWorker,
  type Worker,
} from '../helpers/distributed.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { describeWithRedis, startRedis, type RedisServer } from '../helpers/redis.js';
import { runCli } from '../helpers/spawn.js';

/** The sample's 75 frames in chunks of 20: the segments' first frames. */
const SEAMS = [0, 20, 40, 60];
const RANGES = ['0-19', '20-39', '40-59', '60-74'];

interface Packet {
  pts: number;
  duration: number;
  key: boolean;
}

/** The video packets of `path` in presentation order, times in the stream's own time base (exact). */
function packets(path: string): Packet[] {
  const out = execFileSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'v',
      '-show_entries',
      'packet=pts,duration,flags',
      '-of',
      'csv=p=0',
      path,
    ],
    { encoding: 'utf8' },
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [pts, duration, flags] = l.split(',');
      return { pts: Number(pts), duration: Number(duration), key: flags!.includes('K') };
    })
    .sort((a, b) => a.pts - b.pts);
}

/** The codec of the first video stream. */
function videoCodec(path: string): string {
  return execFileSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', path],
    { encoding: 'utf8' },
  ).trim();
}

/** The md5 of every decoded frame, in order (framemd5's last column). */
const frameHashesOf = (path: string) => framemd5(path).map((l) => l.split(',').at(-1)!.trim());

/**
 * Every frame starts exactly when the local render's does (no seam slipped by the container's rounding), and
 * the presentation times run without a gap or a repeat.
 */
function expectSameTimes(dist: string, local: string, frames: number): void {
  const [d, l] = [packets(dist), packets(local)];
  expect(d).toHaveLength(frames);
  expect(d.map((p) => [p.pts, p.duration])).toEqual(l.map((p) => [p.pts, p.duration]));
  for (let i = 1; i < d.length; i++) expect(d[i]!.pts).toBe(d[i - 1]!.pts + d[i - 1]!.duration);
}

describeWithRedis('video formats in segments (render --redis with 2 workers)', () => {
  let redis: RedisServer;
  let workers: Worker[] = [];
  const logs = () => workers.map((w) => w.log()).join('');

  beforeAll(async () => {
    redis = await startRedis();
    workers = await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await redis?.stop();
  });

  itWithFfmpeg(
    'H.265 MP4: decoded frames equal the same ranges encoded locally, exact times across seams, a key frame at each seam, no segment left',
    async () => {
      const encoding = ['--codec', 'h265', '--crf', '0'];
      const { dir, common } = await sampleRenderedLocally(['--output', 'local/v.mp4', ...encoding]);
      const dist = await runCli(
        [...common, '--output', 'dist/v.mp4', ...encoding, '--redis', redis.url, '--chunk-size', '20'],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(0);
      const out = join(dir, 'dist/v.mp4');
      expect(videoCodec(out)).toBe('hevc');
      for (const range of RANGES) expect(logs()).toContain(`frames ${range}`);
      // x265 has no lossless CRF (0 is still lossy) and the flags reach no --lossless, so the joined frames
      // cannot equal a whole local encode (it has no key frames at the seams). Each chunk is a separate
      // encode of its range: the same ranges encoded locally (--frames) decode to exactly the frames the
      // joined file must show, in order; a frame dropped, doubled or re-encoded at a seam changes the list.
      const parts: string[] = [];
      for (const range of RANGES) {
        const part = await runCli(
          [...common, '--output', `parts/${range}.mp4`, ...encoding, '--frames', range],
          {
            cwd: dir,
            timeoutMs: 120_000,
          },
        );
        expect(part.code).toBe(0);
        parts.push(...frameHashesOf(join(dir, `parts/${range}.mp4`)));
      }
      expect(parts).toHaveLength(75);
      expect(frameHashesOf(out)).toEqual(parts);
      const local = join(dir, 'local/v.mp4');
      expectSameTimes(out, local, 75);
      const localTimes = packets(local).map((p) => p.pts);
      expect(
        packets(out)
          .filter((p) => p.key)
          .map((p) => p.pts),
      ).toEqual(SEAMS.map((f) => localTimes[f]));
      expect(await readdir(join(dir, 'dist'))).toEqual(['v.mp4', 'v.mp4.manifest.json']);
    },
    300_000,
  );

  itWithFfmpeg(
    'ProRes MOV: framemd5 of every frame equals a local render, exact times across seams, no segment left',
    async () => {
      const encoding = ['--prores-profile', 'standard'];
      const { dir, common } = await sampleRenderedLocally(['--output', 'local/v.mov', ...encoding]);
      const dist = await runCli(
        [...common, '--output', 'dist/v.mov', ...encoding, '--redis', redis.url, '--chunk-size', '20'],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(0);
      const [out, local] = [join(dir, 'dist/v.mov'), join(dir, 'local/v.mov')];
      expect(videoCodec(out)).toBe('prores');
      for (const range of RANGES) expect(logs()).toContain(`frames ${range}`);
      // ProRes codes every frame alone (every packet a key frame), so the joined file decodes exactly as a
      // whole local encode: pts, duration, size and hash of each frame.
      const d = framemd5(out);
      expect(d).toHaveLength(75);
      expect(d).toEqual(framemd5(local));
      expectSameTimes(out, local, 75);
      expect(packets(out).every((p) => p.key)).toBe(true);
      expect(await readdir(join(dir, 'dist'))).toEqual(['v.mov', 'v.mov.manifest.json']);
    },
    300_000,
  );
});
