// Distributed rendering: the same 1080p 8-layer PNG item rendered by `effectcraft-cli render` locally (the
// in-process render queue, one thread per core) and through Redis by 2 local `effectcraft-cli worker` processes
// (one thread each, so both runs use every core). Target: the distributed run within 15 % of the local one.
// Skips (exit 0) without redis-server. Coordinator scaling over 50 simulated workers: distributed-scaling.mjs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildComp8 } from './_comp8.mjs';
import { hasRedis, startRedis, startWorkers, stop } from './_redis.mjs';
import { benchSession, dist } from './_session.mjs';

const FRAMES = 120;
const CHUNK = 30;

if (!hasRedis) {
  console.log('distributed: skipped (redis-server is not installed: apt-get install redis-server)');
  process.exit(0);
}

function timedRender(project, extra) {
  const dir = mkdtempSync(join(tmpdir(), 'ec-bench-dist-'));
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      join(dist, 'cli.js'),
      'render',
      project,
      '--comp',
      'Bench',
      '--output',
      join(dir, 'f_[###].png'),
      ...extra,
    ],
    { encoding: 'utf8' },
  );
  const seconds = (performance.now() - t) / 1000;
  rmSync(dir, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`render failed: ${r.stderr.trim().split('\n').at(-1)}`);
  return { seconds, fps: FRAMES / seconds };
}

const work = mkdtempSync(join(tmpdir(), 'ec-bench-dist-work-'));
const project = join(work, 'bench.ecproj');
const { ok } = await benchSession();
await buildComp8(ok, { duration: FRAMES / 30 });
await ok('project.save', { path: project });

const redis = await startRedis();
const url = redis.url;
const workers = await startWorkers(url, 2);
try {
  console.log(
    `distributed, 1920x1080, 8 layers, ${FRAMES} PNG frames, chunks of ${CHUNK}, ${availableParallelism()} cores`,
  );
  const local = timedRender(project, []);
  const distributed = timedRender(project, ['--redis', url, '--chunk-size', String(CHUNK)]);
  const ratio = distributed.seconds / local.seconds;
  console.log(
    `  local render queue        ${local.fps.toFixed(1).padStart(6)} fps (${local.seconds.toFixed(2)} s)`,
  );
  console.log(
    `  2 workers through Redis   ${distributed.fps.toFixed(1).padStart(6)} fps (${distributed.seconds.toFixed(2)} s, ${((ratio - 1) * 100).toFixed(0)} % vs local, target within 15 %: ${ratio <= 1.15 ? 'met' : 'MISSED'})`,
  );
} finally {
  await Promise.all(workers.map(stop));
  await stop(redis.child);
  rmSync(work, { recursive: true, force: true });
}
