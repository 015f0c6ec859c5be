// Coordinator scaling without rendering: the real coordinator (renderDistributed from dist/, alone in its own
// process so its memory is its own) schedules one item of 10,000 frames in chunks of 10 and of 100 (1,000 and
// 100 chunks) over 50 simulated workers (BullMQ Workers in 5 processes that complete each chunk at once with a
// valid ChunkResult, and an assembly that touches no file). Reports the coordinator's wall time per chunk
// (median of RUNS), its heap and RSS peaks above its baseline, and Redis's used_memory peak above its baseline
// (INFO memory sampled every 20 ms). Skips (exit 0) without redis-server.
// Usage: node bench/distributed-scaling.mjs [RUNS]   (needs a build: npm run build)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { hasRedis, startRedis, started, stop } from './_redis.mjs';
import { median } from './stats.mjs';

const FRAMES = 10_000;
const WORKERS = 50;
const PROCESSES = 5;
const CHUNKS = [10, 100];
const runs = Number(process.argv[2] ?? 5);
const here = fileURLToPath(new URL('.', import.meta.url));

if (!hasRedis) {
  console.log('distributed-scaling: skipped (redis-server is not installed: apt-get install redis-server)');
  process.exit(0);
}

const redis = await startRedis();
const client = new Redis(redis.url);
const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1]);
const sims = await Promise.all(
  Array.from({ length: PROCESSES }, () =>
    started(
      spawn(process.execPath, ['_sim-workers.mjs', redis.url, String(WORKERS / PROCESSES)], { cwd: here }),
      'ready',
    ),
  ),
);

/** One coordinator run in its own process, with Redis's memory sampled meanwhile. */
async function run(chunk) {
  const base = await usedMemory();
  let peak = base;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await usedMemory());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const r = await new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '_scaling-coordinator.mjs', redis.url, String(FRAMES), String(chunk)],
      { cwd: here, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
  sampling = false;
  await sampler;
  if (r.code !== 0) throw new Error(`the coordinator failed (${r.code}): ${r.out}`);
  return { ...JSON.parse(r.out), redisPeak: peak - base };
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
try {
  console.log(
    `coordinator scaling: ${FRAMES} frames, ${WORKERS} simulated workers in ${PROCESSES} processes, median of ${runs} runs`,
  );
  console.log(
    '  chunk  chunks   wall ms  ms/chunk  heap peak MB  RSS peak MB  Redis peak MB  doc bytes (stored once)',
  );
  for (const chunk of CHUNKS) {
    const samples = [];
    await run(chunk); // warm-up: Redis scripts loaded, page cache
    for (let i = 0; i < runs; i++) samples.push(await run(chunk));
    const m = (key) => median(samples.map((s) => s[key]));
    const { chunks, docBytes } = samples[0];
    console.log(
      `  ${String(chunk).padStart(5)}  ${String(chunks).padStart(6)}  ${m('ms').toFixed(0).padStart(8)}  ${(m('ms') / chunks).toFixed(2).padStart(8)}  ${mb(m('heapPeak')).padStart(12)}  ${mb(m('rssPeak')).padStart(11)}  ${mb(m('redisPeak')).padStart(13)}  ${String(docBytes).padStart(13)}`,
    );
  }
} finally {
  client.disconnect();
  await Promise.all(sims.map(stop));
  await stop(redis.child);
}
