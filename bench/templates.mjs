// Data-driven batch: `effectcraft-cli render template.ecproj --data rows.csv` rendering 50 short clips (a
// 320x180 lower third, 1 s at 30 fps, to MP4 when ffmpeg is there, else a PNG sequence), one per row, in one
// process: renders per minute, local. Baseline in the same conditions: the same render done by one CLI process
// per clip (`render --props`), which is what a pipeline without --data would spawn. Distributed: the same batch
// with --redis through 2 local `effectcraft-cli worker` processes (one render thread each, so both runs use every
// core), at the default chunk size (one segment per clip) and at 15 frames (two per clip); skipped without
// redis-server.
// Usage: node bench/templates.mjs [BATCHES] [BASELINE_RUNS]   (needs a build: npm run build)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasRedis, startRedis, startWorkers, stop } from './_redis.mjs';
import { benchSession, dist } from './_session.mjs';
import { median } from './stats.mjs';

const ROWS = 50;
const batches = Number(process.argv[2] ?? 3);
const baselineRuns = Number(process.argv[3] ?? 8);
const cli = join(dist, 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'ec-templates-bench-'));
const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
const ext = hasFfmpeg ? 'mp4' : 'png';

/** The template: a bar in the input "accent", a name in the input "name"; its queue item writes {name}. */
async function makeProject() {
  const { ok } = await benchSession();
  await ok('comp.new', { name: 'Lower third', width: 320, height: 180, frameRate: 30, duration: 1 });
  await ok('layer.addSolid', { name: 'Bar', color: '#203040', width: 320, height: 60 });
  await ok('property.set', { layer: 'Bar', property: 'transform.position', value: [160, 140] });
  await ok('layer.addText', { name: 'Name', text: 'Name', fontSize: 32 });
  await ok('property.set', { layer: 'Name', property: 'transform.position', value: [160, 140] });
  await ok('input.define', { name: 'name', type: 'text', bind: [{ layer: 'Name', property: 'text.text' }] });
  await ok('input.define', {
    name: 'accent',
    type: 'color',
    bind: [{ layer: 'Bar', property: 'solid.color' }],
  });
  const output = hasFfmpeg ? '{name}.mp4' : '{name}_[##].png';
  await ok('renderQueue.add', { comp: 'Lower third', output: join(dir, 'out', output) });
  const path = join(dir, 'template.ecproj');
  await ok('project.save', { path });
  return path;
}

function cliRun(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`effectcraft-cli ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

try {
  const project = await makeProject();
  const colours = ['#e94560', '#0f3460', '#16a085', '#f39c12', '#8e44ad'];
  const rows = Array.from({ length: ROWS }, (_, i) => `Speaker${i + 1},${colours[i % colours.length]}`);
  writeFileSync(join(dir, 'rows.csv'), `name,accent\n${rows.join('\n')}\n`);
  const batch = [];
  for (let i = 0; i < batches; i++) batch.push(cliRun(['render', project, '--data', 'rows.csv']));
  const single = [];
  for (let i = 0; i < baselineRuns; i++) {
    const props = JSON.stringify({ name: `One${i}`, accent: colours[i % colours.length] });
    const output = hasFfmpeg ? `one_${i}.mp4` : `one_${i}_[##].png`;
    single.push(cliRun(['render', project, '--comp', 'Lower third', '--output', output, '--props', props]));
  }
  const distributed = [];
  if (hasRedis) {
    const redis = await startRedis();
    const workers = await startWorkers(redis.url, 2);
    try {
      for (const chunk of ['100', '15']) {
        const runs = [];
        for (let i = 0; i < batches; i++)
          runs.push(
            cliRun(['render', project, '--data', 'rows.csv', '--redis', redis.url, '--chunk-size', chunk]),
          );
        distributed.push({ chunk, ms: median(runs) });
      }
    } finally {
      await Promise.all(workers.map(stop));
      await stop(redis.child);
    }
  }
  const perMinute = (ms, renders) => ((renders / ms) * 60_000).toFixed(1);
  const b = median(batch);
  const s = median(single);
  console.log(
    `--data batch of ${ROWS} renders (320x180, 30 frames, ${ext}; ${batches} batches): median ${(b / 1000).toFixed(2)} s, ${perMinute(b, ROWS)} renders/min`,
  );
  console.log(
    `baseline, one process per render (--props; ${baselineRuns} runs): median ${(s / 1000).toFixed(2)} s, ${perMinute(s, 1)} renders/min`,
  );
  console.log(`batch speed-up over one process per render: ${(s / (b / ROWS)).toFixed(2)}x`);
  for (const { chunk, ms } of distributed)
    console.log(
      `--data --redis, 2 local workers, --chunk-size ${chunk} (${batches} batches): median ${(ms / 1000).toFixed(2)} s, ${perMinute(ms, ROWS)} renders/min (${(b / ms).toFixed(2)}x local)`,
    );
  if (!hasRedis) console.log('--data --redis: skipped (redis-server is not installed)');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
