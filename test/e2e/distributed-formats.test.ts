/**
 * Video formats in segments through a real Redis and two `effectcraft-cli worker` processes: H.265 (MP4),
 * ProRes (MOV) and VP9 (WebM, with alpha and Opus sound too) are encoded per chunk and joined without
 * re-encoding. Seams are checked by per-frame hashes and exact packet times, never by frame counts (a
 * duplicated frame keeps the count right).
 */
import { expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { framemd5, redisWithWorkers, sampleRenderedLocally, toneProject } from '../helpers/distributed.js';
import { newEngine, run } from '../helpers/engine.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { describeWithRedis } from '../helpers/redis.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

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

/** The md5 of every decoded video frame, in order (framemd5's last column). */
const frameHashesOf = (path: string, decoder: string[] = []) =>
  framemd5(path, decoder)
    .filter((l) => l.startsWith('0,'))
    .map((l) => l.split(',').at(-1)!.trim());

/**
 * The decoded frames of `ranges` each encoded locally on its own (`--frames A-B`, to `parts/`), in order:
 * what a file joined from per-chunk encodes of those ranges must show, frame for frame. For lossy codecs
 * without a lossless mode the flags reach (x265's CRF 0 is lossy; VP9 lossless needs -lossless 1), a whole
 * local encode cannot be the reference: it has no key frames at the seams.
 */
async function rangesEncodedLocally(
  dir: string,
  render: string[],
  ext: string,
  ranges: readonly string[],
  decoder: string[] = [],
): Promise<string[]> {
  const hashes: string[] = [];
  for (const range of ranges) {
    const out = `parts/${range}.${ext}`;
    const r = await runCli([...render, '--output', out, '--frames', range], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    hashes.push(...frameHashesOf(join(dir, out), decoder));
  }
  return hashes;
}

/** The presentation times of the key frames of `path` are those of frames `seams` in `local`. */
function expectKeyFramesAt(path: string, local: string, seams: readonly number[]): void {
  const localTimes = packets(local).map((p) => p.pts);
  expect(
    packets(path)
      .filter((p) => p.key)
      .map((p) => p.pts),
  ).toEqual(seams.map((f) => localTimes[f]));
}

/**
 * Every frame starts exactly when the local render's does (no seam slipped by the container's rounding), and
 * the presentation times run without a gap or a repeat.
 */
function expectSameTimes(dist: string, local: string, frames: number): void {
  const [d, l] = [packets(dist), packets(local)];
  expect(d).toHaveLength(frames);
  expect(d.map((p) => [p.pts, p.duration])).toEqual(l.map((p) => [p.pts, p.duration]));
  // Each frame starts where the one before ends, within one tick (WebM's milliseconds round 33.3 ms frames).
  for (let i = 1; i < d.length; i++)
    expect(Math.abs(d[i]!.pts - d[i - 1]!.pts - d[i - 1]!.duration)).toBeLessThanOrEqual(1);
}

describeWithRedis('video formats in segments (render --redis with 2 workers)', () => {
  const redis = redisWithWorkers();
  const logs = () => redis.workers.map((w) => w.log()).join('');

  /**
   * The sample rendered locally to local/v.EXT and on the workers to dist/v.EXT in chunks of 20 frames (one
   * segment per range of RANGES, checked in the workers' logs), both with `encoding`; dist is in `codec`.
   */
  async function renderedBothWays(ext: string, encoding: string[], codec: string) {
    const { dir, common } = await sampleRenderedLocally(['--output', `local/v.${ext}`, ...encoding]);
    const dist = await runCli(
      [...common, '--output', `dist/v.${ext}`, ...encoding, '--redis', redis.url, '--chunk-size', '20'],
      { cwd: dir, timeoutMs: 120_000 },
    );
    expect(dist.code).toBe(0);
    const [out, local] = [join(dir, `dist/v.${ext}`), join(dir, `local/v.${ext}`)];
    expect(videoCodec(out)).toBe(codec);
    for (const range of RANGES) expect(logs()).toContain(`frames ${range}`);
    // Only the output and its manifest: no segment left.
    expect(await readdir(join(dir, 'dist'))).toEqual([`v.${ext}`, `v.${ext}.manifest.json`]);
    return { dir, render: [...common, ...encoding], out, local };
  }

  // x265's CRF 0 is still lossy, and CRF 0 with -b:v 0 is not lossless in libvpx-vp9 (the sample's frames
  // differ): each chunk being a separate encode of its range, the same ranges encoded locally are the
  // reference, and a frame dropped, doubled or re-encoded at a seam changes the list. In WebM's milliseconds
  // at 30 fps, frame 22 must be at 733 ms, not 667 + 67 (a segment's own rounding from its start).
  for (const [name, ext, encoding, codec] of [
    ['H.265 MP4', 'mp4', ['--codec', 'h265', '--crf', '0'], 'hevc'],
    ['WebM (VP9)', 'webm', ['--crf', '0'], 'vp9'],
  ] as const)
    itWithFfmpeg(
      `${name}: decoded frames equal the same ranges encoded locally, every packet's time equal to a local render's, a key frame at each seam, no segment left`,
      async () => {
        const { dir, render, out, local } = await renderedBothWays(ext, [...encoding], codec);
        const parts = await rangesEncodedLocally(dir, render, ext, RANGES);
        expect(parts).toHaveLength(75);
        expect(frameHashesOf(out)).toEqual(parts);
        expectSameTimes(out, local, 75);
        expectKeyFramesAt(out, local, SEAMS);
      },
      300_000,
    );

  itWithFfmpeg(
    'ProRes MOV: framemd5 of every frame equals a local render, exact times across seams, no segment left',
    async () => {
      const { out, local } = await renderedBothWays('mov', ['--prores-profile', 'standard'], 'prores');
      // ProRes codes every frame alone (every packet a key frame), so the joined file decodes exactly as a
      // whole local encode: pts, duration, size and hash of each frame.
      const d = framemd5(out);
      expect(d).toHaveLength(75);
      expect(d).toEqual(framemd5(local));
      expectSameTimes(out, local, 75);
      expect(packets(out).every((p) => p.key)).toBe(true);
    },
    300_000,
  );

  itWithFfmpeg(
    "WebM with alpha and sound: the Opus sound mixed once and muxed at assembly (every audio frame's framemd5 equals a local render's), the alpha plane kept in every segment",
    async () => {
      const dir = await tempDir();
      await toneProject(dir);
      const render = ['render', 's.ecproj', '--comp', 'Spot', '--alpha'];
      expect(
        (await runCli([...render, '--output', 'local/v.webm'], { cwd: dir, timeoutMs: 120_000 })).code,
      ).toBe(0);
      const dist = await runCli(
        [...render, '--output', 'dist/v.webm', '--redis', redis.url, '--chunk-size', '10'],
        {
          cwd: dir,
          timeoutMs: 120_000,
        },
      );
      expect(dist.code).toBe(0);
      const [out, local] = [join(dir, 'dist/v.webm'), join(dir, 'local/v.webm')];
      const audio = (path: string) => framemd5(path).filter((l) => l.startsWith('1,'));
      expect(audio(out).length).toBeGreaterThan(100);
      expect(audio(out)).toEqual(audio(local));
      // libvpx-vp9 decodes the alpha plane (ffmpeg's own VP9 decoder drops it): yuva420p frames.
      const alpha = ['-c:v', 'libvpx-vp9'];
      const parts = await rangesEncodedLocally(dir, render, 'webm', ['0-9', '10-19', '20-29'], alpha);
      expect(parts).toHaveLength(30);
      expect(frameHashesOf(out, alpha)).toEqual(parts);
      expect(frameHashesOf(out, alpha)).not.toEqual(frameHashesOf(out));
      expectSameTimes(out, local, 30);
      expectKeyFramesAt(out, local, [0, 10, 20]);
      expect(await readdir(join(dir, 'dist'))).toEqual(['v.webm', 'v.webm.manifest.json']);
    },
    300_000,
  );
  itWithFfmpeg(
    "WebM at 29.97 fps: every packet's millisecond time equal to a local render's (frame 15 at 501 ms, the exact 500.5 rounded as ffmpeg rounds it)",
    async () => {
      const dir = await tempDir();
      const engine = newEngine();
      await run(engine, 'comp.new', { name: 'Ntsc', width: 32, height: 18, frameRate: 29.97, duration: 1.1 });
      await run(engine, 'layer.addSolid', { name: 'Bar', color: '#008080', width: 8, height: 18 });
      await run(engine, 'project.save', { path: join(dir, 'n.ecproj') });
      const render = ['render', 'n.ecproj', '--comp', 'Ntsc'];
      expect(
        (await runCli([...render, '--output', 'local/v.webm'], { cwd: dir, timeoutMs: 120_000 })).code,
      ).toBe(0);
      const dist = await runCli(
        [...render, '--output', 'dist/v.webm', '--redis', redis.url, '--chunk-size', '16'],
        { cwd: dir, timeoutMs: 120_000 },
      );
      expect(dist.code).toBe(0);
      const [out, local] = [join(dir, 'dist/v.webm'), join(dir, 'local/v.webm')];
      expect(packets(local)[15]!.pts).toBe(501);
      expectSameTimes(out, local, 33);
    },
    300_000,
  );
});
