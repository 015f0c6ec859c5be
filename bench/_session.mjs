// The session a benchmark drives: the built dist (EFFECTCRAFT_DIST=.dist-x for another build directory), at
// most BENCH_WORKERS render workers when set, and `ok(id, params, options)`, which runs one engine command and
// returns its result or throws its error.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { treeRss } from './stats.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const dist = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist');

export async function benchSession() {
  const { createSession } = await import(pathToFileURL(join(dist, 'session.js')).href);
  const session = createSession({
    searchPath: process.env.PATH,
    ...(process.env.BENCH_WORKERS ? { renderQueue: { maxWorkers: Number(process.env.BENCH_WORKERS) } } : {}),
  });
  const ok = async (id, params, options) => {
    const r = await session.engine.execute(id, params, options);
    if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
    return r.result;
  };
  return { session, ok };
}

/**
 * Adds one queue item (`item`: renderQueue.add's params), renders it alone and removes it: its wall time in
 * seconds and the peak resident memory of the whole process tree (worker threads and every ffmpeg child),
 * sampled from /proc every 25 ms, in bytes.
 */
export async function renderWithPeak(ok, item) {
  const { id } = await ok('renderQueue.add', item);
  globalThis.gc?.();
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, treeRss())), 25);
  const t = performance.now();
  const result = await ok('renderQueue.render', { items: [id] });
  const seconds = (performance.now() - t) / 1000;
  clearInterval(timer);
  await ok('renderQueue.remove', { id });
  if (result.completed !== 1) throw new Error(`render failed: ${JSON.stringify(result.items[0]?.error)}`);
  return { seconds, peak };
}
