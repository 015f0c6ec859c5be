// The MP4 path of the 8-layer 1080p comp (bench/_comp8.mjs), 240 frames, in a process of its own (so the peak
// is this render's): renderQueue.render to MP4 (H.264, CRF 18, the exporter's own arguments), fps and the
// ratio to the encoder's limit (ffmpeg encoding the engine's own raw frames alone, from a file: what any
// compositor feeding this encoder is bounded by), target >= 0.85; peak memory of the whole process tree,
// ffmpeg included, sampled from /proc every 25 ms, target < 600 MB. Against the built dist (EFFECTCRAFT_DIST).
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildComp8 } from './_comp8.mjs';
import { encoderLimitSeconds, mp4Encoder } from './_encoder.mjs';
import { treeRss } from './stats.mjs';
import { benchSession, dist } from './_session.mjs';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 240);
const { session, ok } = await benchSession();
const comp = await buildComp8(ok, { duration: FRAMES / 30 });
const check = (v, target, more = true) => ((more ? v >= target : v < target) ? 'met' : 'MISSED');
const work = mkdtempSync(join(tmpdir(), 'ec-bench-mp4-'));

/** renderQueue.render to MP4, with the whole process tree's peak (ffmpeg included) sampled every 25 ms. */
async function mp4Run(dir) {
  const { id } = await ok('renderQueue.add', { comp, output: join(dir, 'ours.mp4'), format: 'mp4' });
  globalThis.gc?.();
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, treeRss())), 25);
  const t = performance.now();
  const result = await ok('renderQueue.render', { items: [id] });
  const seconds = (performance.now() - t) / 1000;
  clearInterval(timer);
  await ok('renderQueue.remove', { id });
  if (result.completed !== 1) throw new Error(`MP4 render failed: ${JSON.stringify(result.items[0]?.error)}`);
  return { fps: FRAMES / seconds, seconds, peakMb: peak / 2 ** 20 };
}

/** The engine's own frames as raw RGBA in one file (the encoder's-limit baseline encodes them alone). */
async function rawFrames(file) {
  const renderer = await session.renderer();
  const fd = openSync(file, 'w');
  try {
    for (let f = 0; f < FRAMES; f++) {
      const frame = await renderer.renderFrame(session.engine.document, comp, f / 30, { scale: 1 });
      writeSync(fd, frame.rgba);
    }
  } finally {
    closeSync(fd);
  }
}

console.log(`MP4 path, 1920x1080, 8 layers, ${FRAMES} frames`);
const encoder = await mp4Encoder(dist);
const mp4 = await mp4Run(work);
const raw = join(work, 'frames.rgba');
await rawFrames(raw);
const limitSeconds = encoderLimitSeconds(
  raw,
  1920,
  1080,
  30,
  FRAMES,
  encoder.args(1920, 1080, FRAMES),
  join(work, 'limit.mp4'),
);
rmSync(raw, { force: true });
const limitFps = FRAMES / limitSeconds;
console.log(
  `  ${'MP4 (H.264 crf 18)'.padEnd(20)} ${mp4.fps.toFixed(1).padStart(6)} fps (${mp4.seconds.toFixed(2)} s); encoder's limit (ffmpeg encoding our raw frames alone) ${limitFps.toFixed(1)} fps; ratio ${(mp4.fps / limitFps).toFixed(2)} (target >= 0.85: ${check(mp4.fps / limitFps, 0.85)})`,
);
console.log(
  `  ${''.padEnd(20)} peak RSS, process tree incl. ffmpeg: ${mp4.peakMb.toFixed(0)} MB (target < 600: ${check(mp4.peakMb, 600, false)})`,
);
(await session.renderer()).dispose();
rmSync(work, { recursive: true, force: true });
