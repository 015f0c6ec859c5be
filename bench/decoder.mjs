// Reading a video decoder, against the built dist (EFFECTCRAFT_DIST=.dist-x for another build directory): a fresh
// decoder's first 30 frames of a generated 1920x1080 H.264 clip (1 s GOP at 30 fps: the most a preview's seek
// reads through), as RGBA (previews, footage drawn in RGB) and as I420 (footage plates). The frames reach us
// through the socket pair that reads them straight into their buffers (src/render/media/frame-socket.ts) or,
// as the baseline in the same script, through the stdout pipe a decoder falls back to (made to by a TMPDIR that
// does not exist). Medians of interleaved rounds: wall time to the 30th frame, and this process's CPU for it
// (a full collection included, run with --expose-gc as npm run bench does); and the floor, ffmpeg decoding the same frames with nothing reading them (-f null).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { dist } from './_session.mjs';
import { median } from './stats.mjs';

const FRAMES = 30;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const dir = mkdtempSync(join(tmpdir(), 'ec-bench-decoder-'));
const clip = join(dir, 'clip.mp4');
execFileSync('ffmpeg', [
  ...['-hide_banner', '-loglevel', 'error', '-y'],
  ...['-f', 'lavfi', '-i', `testsrc2=s=1920x1080:r=30:d=2`],
  ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', '30', '-pix_fmt', 'yuv420p', clip],
]);
const { VideoDecoder } = await import(pathToFileURL(join(dist, 'render/media/decoder.js')).href);
const spec = (output) => ({
  ffmpeg: 'ffmpeg',
  input: clip,
  width: 1920,
  height: 1080,
  seek: 0,
  codec: 'h264',
  alpha: false,
  ...(output === 'i420' ? { planar: 'yuv420p' } : {}),
});
const realTmp = process.env.TMPDIR;
const socketTmp = tmpdir();
const noTmp = join(dir, 'missing');

async function firstFrames(output, via) {
  process.env.TMPDIR = via === 'pipe' ? noTmp : socketTmp;
  const t = performance.now();
  const cpu = process.cpuUsage();
  const decoder = await VideoDecoder.start(spec(output), true, output);
  for (let i = 0; i < FRAMES; i++) decoder.recycle(await decoder.next());
  // Each way pays for its own garbage (the pipe's 64 KB chunks), not the one before it.
  globalThis.gc?.();
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - t;
  decoder.close();
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function floor(output) {
  const t = performance.now();
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-threads', '1', '-i', clip, '-frames:v', String(FRAMES)],
    ...['-pix_fmt', output === 'i420' ? 'yuv420p' : 'rgba', '-f', 'null', '-'],
  ]);
  return performance.now() - t;
}

const row = (label, value) => console.log(`  ${label.padEnd(52)} ${value.padStart(10)}`);
console.log(`  a fresh decoder's first ${FRAMES} frames of a 1080p H.264 clip, medians of ${ROUNDS} rounds`);
for (const output of ['rgba', 'i420']) {
  const runs = { socket: [], pipe: [], floor: [] };
  for (let r = 0; r < ROUNDS; r++) {
    runs.socket.push(await firstFrames(output, 'socket'));
    runs.pipe.push(await firstFrames(output, 'pipe'));
    runs.floor.push(floor(output));
  }
  const wall = (v) => median(runs[v].map((x) => x.wall));
  const cpu = (v) => median(runs[v].map((x) => x.cpu));
  row(
    `${output}: through the socket pair, wall / our CPU`,
    `${wall('socket').toFixed(0)} / ${cpu('socket').toFixed(0)} ms`,
  );
  row(
    `${output}: through the stdout pipe, wall / our CPU`,
    `${wall('pipe').toFixed(0)} / ${cpu('pipe').toFixed(0)} ms`,
  );
  row(
    `${output}: ratio, socket / pipe (wall, CPU)`,
    `${(wall('socket') / wall('pipe')).toFixed(2)}x, ${(cpu('socket') / cpu('pipe')).toFixed(2)}x`,
  );
  row(`${output}: ffmpeg alone, nothing reading (-f null)`, `${median(runs.floor).toFixed(0)} ms`);
}
if (realTmp === undefined) delete process.env.TMPDIR;
else process.env.TMPDIR = realTmp;
rmSync(dir, { recursive: true, force: true });
