// Render queue benchmark: the 8-layer 1080p comp (bench/_comp8.mjs, as in compose.mjs), 240 frames.
// - renderQueue.render to PNG sequences at zlib level 6 and `png-fast` (level 1): frames/s and peak RSS (the
//   process, worker threads included: sampled rss and /proc VmHWM). Targets (2 cores): >= 30 / >= 45 fps, < 600 MB.
// - The same PNG render as a pipeline runs it: `effectcraft-cli render` of the saved project, start-up included
//   (target >= 55 fps on this machine).
// - Baseline in the same run: ffmpeg's own filter graph drawing the same comp (a real blurred star, rotating
//   layers without trails, the same two-line subtitle) to PNGs; the two first frames are compared by pixel
//   difference and the figure printed, so the baseline's fairness is visible. Target >= 2x ffmpeg.
// - The MP4 path is bench/render-mp4.mjs (its own process, so its memory peak is its own).
// Runs against the built dist (EFFECTCRAFT_DIST=.dist-x).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { buildComp8, ffmpegComp8Args, starSvg } from './_comp8.mjs';
import { benchSession, dist, root } from './_session.mjs';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 240);

const { session, ok } = await benchSession();
const comp = await buildComp8(ok, { duration: FRAMES / 30 });

function vmHwmMb() {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}
function resetPeak() {
  // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux), so each run reports its own peak.
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    /* not permitted: VmHWM then covers the whole process */
  }
}

async function renderRun(format) {
  const dir = mkdtempSync(join(tmpdir(), 'ec-bench-'));
  const { id } = await ok('renderQueue.add', { comp, output: join(dir, 'f_[###].png'), format });
  globalThis.gc?.();
  resetPeak();
  let peak = 0;
  const quarter = [];
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  const off = session.renderQueue.onProgress((p) => {
    if (p.framesDone === Math.round(FRAMES / 4) || p.framesDone === FRAMES)
      quarter.push(process.memoryUsage().rss);
  });
  const t = performance.now();
  const result = await ok('renderQueue.render', { items: [id] });
  const seconds = (performance.now() - t) / 1000;
  clearInterval(timer);
  off();
  await ok('renderQueue.remove', { id });
  if (result.completed !== 1) throw new Error(`render failed: ${JSON.stringify(result.items[0]?.error)}`);
  rmSync(dir, { recursive: true, force: true });
  return {
    fps: FRAMES / seconds,
    seconds,
    peakMb: peak / 2 ** 20,
    hwmMb: vmHwmMb(),
    bytes: result.items[0].bytes,
    quarter,
  };
}

/** ffmpeg's filter graph of the same comp to PNGs; keeps its first frame at `firstFrame` for the comparison. */
async function ffmpegRun(level, firstFrame) {
  const dir = mkdtempSync(join(tmpdir(), 'ec-bench-ff-'));
  const { side, svg } = starSvg();
  const star = join(dir, 'star.png');
  await sharp(Buffer.from(svg)).png().toFile(star);
  const woff = join(root, 'fixtures/fonts/inter-latin-700-normal.woff2');
  const regular = join(root, 'fixtures/fonts/inter-latin-400-normal.woff2');
  const fonts = [woff, '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'].filter(existsSync);
  try {
    for (const font of fonts) {
      const t = performance.now();
      const r = spawnSync(
        'ffmpeg',
        ffmpegComp8Args(
          FRAMES,
          join(dir, 'f_%03d.png'),
          font,
          level,
          star,
          side,
          font === woff ? regular : font,
        ),
        {
          encoding: 'utf8',
        },
      );
      const seconds = (performance.now() - t) / 1000;
      if (r.status === 0) {
        copyFileSync(join(dir, 'f_001.png'), firstFrame);
        return { fps: FRAMES / seconds, seconds };
      }
      process.stderr.write(`ffmpeg with ${font} failed: ${r.stderr?.trim().split('\n').at(-1) ?? r.error}\n`);
    }
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Mean absolute difference per channel (0-255) of two same-size pictures, and the share of pixels off by > 32. */
async function pixelDifference(a, b) {
  const [x, y] = await Promise.all([a, b].map((f) => sharp(f).removeAlpha().raw().toBuffer()));
  let sum = 0;
  let far = 0;
  for (let i = 0; i < x.length; i += 3) {
    const d = [0, 1, 2].map((c) => Math.abs(x[i + c] - y[i + c]));
    sum += d[0] + d[1] + d[2];
    if (Math.max(...d) > 32) far++;
  }
  return { mean: sum / x.length, far: far / (x.length / 3) };
}

/** `effectcraft-cli render` of the saved project to PNGs, timed as a pipeline sees it (start-up included). */
function wholeProcessRun(project) {
  const dir = mkdtempSync(join(tmpdir(), 'ec-bench-cli-'));
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(dist, 'cli.js'), 'render', project, '--comp', 'Bench', '--output', join(dir, 'f_[###].png')],
    { encoding: 'utf8' },
  );
  const seconds = (performance.now() - t) / 1000;
  rmSync(dir, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`effectcraft-cli render failed: ${r.stderr.trim().split('\n').at(-1)}`);
  return { fps: FRAMES / seconds, seconds };
}

const cores = availableParallelism();
console.log(`render queue, 1920x1080, 8 layers, ${FRAMES} frames, ${cores} cores`);
const check = (v, target, more = true) => ((more ? v >= target : v < target) ? 'met' : 'MISSED');
const work = mkdtempSync(join(tmpdir(), 'ec-bench-work-'));
const l6 = await renderRun('png');
const l1 = await renderRun('png-fast');
for (const [label, r, target] of [
  ['PNG level 6', l6, 30],
  ['PNG fast (level 1)', l1, 45],
]) {
  console.log(
    `  ${label.padEnd(20)} ${r.fps.toFixed(1).padStart(6)} fps (${r.seconds.toFixed(2)} s, target >= ${target}: ${check(r.fps, target)})` +
      `  peak RSS ${r.peakMb.toFixed(0)} MB sampled / ${r.hwmMb.toFixed(0)} MB VmHWM (target < 600: ${check(Math.max(r.peakMb, r.hwmMb), 600, false)})` +
      `  RSS at 25%/100%: ${r.quarter.map((b) => (b / 2 ** 20).toFixed(0)).join('/')} MB  ${(r.bytes / 2 ** 20).toFixed(1)} MB written`,
  );
}

const project = join(work, 'bench.ecproj');
await ok('project.save', { path: project });
const cli = wholeProcessRun(project);
console.log(
  `  ${'PNG level 6, whole process'.padEnd(20)} ${cli.fps.toFixed(1).padStart(6)} fps (${cli.seconds.toFixed(2)} s, effectcraft-cli render, start-up included; target >= 55: ${check(cli.fps, 55)})`,
);

const oursFirst = join(work, 'ours-0.png');
const ffFirst = join(work, 'ffmpeg-0.png');
await ok('frame.save', { comp, time: 0, path: oursFirst });
const ff6 = await ffmpegRun(6, ffFirst);
if (ff6) {
  const diff = await pixelDifference(oursFirst, ffFirst);
  console.log(
    `  ffmpeg filter graph  ${ff6.fps.toFixed(1).padStart(6)} fps (${ff6.seconds.toFixed(2)} s, PNG level 6; first frames differ by ${diff.mean.toFixed(1)} levels on average, ${(diff.far * 100).toFixed(1)} % of pixels by > 32)`,
  );
  console.log(
    `  ratio (level 6 vs ffmpeg): ${(l6.fps / ff6.fps).toFixed(2)}x (target >= 2x: ${check(l6.fps / ff6.fps, 2)})`,
  );
  console.log(`  ratio (whole process vs ffmpeg): ${(cli.fps / ff6.fps).toFixed(2)}x`);
} else {
  console.log('  ffmpeg filter graph: not run (ffmpeg missing or the graph failed; see stderr)');
}

(await session.renderer()).dispose();
rmSync(work, { recursive: true, force: true });
