// Render queue benchmark: the 8-layer 1080p comp (bench/_comp8.mjs, as in compose.mjs), 240 frames,
// rendered by renderQueue.render to PNG sequences at zlib level 6 and `png-fast` (level 1): frames/s and
// peak RSS (the process, worker threads included: sampled rss and /proc VmHWM). Baseline in the same run:
// ffmpeg's own filter graph rendering an equivalent comp to PNGs. Targets (2 cores): >= 30 fps level 6,
// >= 45 fps fast, >= 2x ffmpeg, peak RSS < 600 MB. Runs against the built dist (EFFECTCRAFT_DIST=.dist-x).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildComp8, ffmpegComp8Args } from './_comp8.mjs';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 240);
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist');
const { createSession } = await import(pathToFileURL(join(dist, 'session.js')).href);

const session = createSession(
  process.env.BENCH_WORKERS ? { renderQueue: { maxWorkers: Number(process.env.BENCH_WORKERS) } } : {},
);
const ok = async (id, params, options) => {
  const r = await session.engine.execute(id, params, options);
  if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
  return r.result;
};
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

function ffmpegRun(level) {
  const dir = mkdtempSync(join(tmpdir(), 'ec-bench-ff-'));
  const woff = join(root, 'fixtures/fonts/inter-latin-700-normal.woff2');
  const fonts = [woff, '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'].filter(existsSync);
  for (const font of fonts) {
    const t = performance.now();
    const r = spawnSync('ffmpeg', ffmpegComp8Args(FRAMES, join(dir, 'f_%03d.png'), font, level), {
      encoding: 'utf8',
    });
    const seconds = (performance.now() - t) / 1000;
    if (r.status === 0) {
      rmSync(dir, { recursive: true, force: true });
      return { fps: FRAMES / seconds, seconds };
    }
    process.stderr.write(`ffmpeg with ${font} failed: ${r.stderr?.trim().split('\n').at(-1) ?? r.error}\n`);
  }
  rmSync(dir, { recursive: true, force: true });
  return null;
}

const cores = availableParallelism();
console.log(`render queue, 1920x1080, 8 layers, ${FRAMES} frames, ${cores} cores`);
const check = (v, target, more = true) => ((more ? v >= target : v < target) ? 'met' : 'MISSED');
const l6 = await renderRun('png');
const l1 = await renderRun('png-fast');
const ff6 = ffmpegRun(6);
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
if (ff6) {
  const ratio = l6.fps / ff6.fps;
  console.log(
    `  ffmpeg filter graph  ${ff6.fps.toFixed(1).padStart(6)} fps (${ff6.seconds.toFixed(2)} s, PNG level 6)`,
  );
  console.log(`  ratio (level 6 vs ffmpeg): ${ratio.toFixed(2)}x (target >= 2x: ${check(ratio, 2)})`);
} else {
  console.log('  ffmpeg filter graph: not run (ffmpeg missing or the graph failed; see stderr)');
}
