// Simulated render workers for bench/distributed-scaling.mjs: N BullMQ Workers in this process on the render
// queue, one job at a time each, that render nothing. A chunk reports its frames once (as a real worker's last
// progress event) and completes with a valid ChunkResult and no files; an assembly sums its chunks and writes
// nothing. Usage: node _sim-workers.mjs URL N. Prints "ready" once every worker is connected; SIGTERM closes them.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'bullmq';
import { dist } from './_session.mjs';

const [url, count] = [process.argv[2], Number(process.argv[3])];
const { QUEUE_NAME, JOB } = await import(pathToFileURL(join(dist, 'render/distributed/protocol.js')).href);
const { workerOptions } = await import(pathToFileURL(join(dist, 'render/distributed/connection.js')).href);

async function process_(job) {
  if (job.name === JOB.chunk) {
    const frames = job.data.end - job.data.start + 1;
    await job.updateProgress({ done: frames });
    return { start: job.data.start, frames, skipped: 0, files: [] };
  }
  const values = Object.values(await job.getChildrenValues());
  return { frames: values.reduce((n, v) => n + v.frames, 0), skipped: 0, files: [], manifest: null };
}

const workers = Array.from(
  { length: count },
  () => new Worker(QUEUE_NAME, process_, { connection: workerOptions(url), concurrency: 1 }),
);
await Promise.all(workers.map((w) => w.waitUntilReady()));
console.log('ready');
process.on('SIGTERM', async () => {
  await Promise.all(workers.map((w) => w.close()));
  process.exit(0);
});
