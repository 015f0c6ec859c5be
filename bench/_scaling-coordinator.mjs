// The coordinator of bench/distributed-scaling.mjs, alone in its process so its memory is its own: the real
// renderDistributed (from dist/) on one PNG-sequence item of FRAMES frames in chunks of CHUNK. Prints one JSON
// line: wall time, chunks, and the heap and RSS above the baseline taken just before the render (peaks sampled
// every 20 ms). Usage: node --expose-gc _scaling-coordinator.mjs URL FRAMES CHUNK
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { benchSession, dist } from './_session.mjs';

const [url, frames, chunkSize] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const { renderDistributed } = await import(
  pathToFileURL(join(dist, 'render/distributed/coordinator.js')).href
);
const { session, ok } = await benchSession();
const frameRate = 25;
await ok('comp.new', { name: 'Long', width: 320, height: 180, frameRate, duration: frames / frameRate });
await ok('layer.addSolid', { color: '#336699', name: 'Bg' });
const { id } = await ok('renderQueue.add', {
  comp: 'Long',
  output: join(tmpdir(), 'ec-scaling', 'f_[#####].png'),
});
const doc = session.engine.document;
const item = doc.renderQueue.find((i) => i.id === id);

globalThis.gc?.();
const base = process.memoryUsage();
const peak = { rss: base.rss, heap: base.heapUsed };
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak.rss = Math.max(peak.rss, m.rss);
  peak.heap = Math.max(peak.heap, m.heapUsed);
}, 20);
const t = performance.now();
const result = await renderDistributed(doc, [item], {
  url,
  version: 'bench',
  chunkSize,
  attempts: 1,
  backoffMs: 1000,
  signal: new globalThis.AbortController().signal,
  detail: 'compact',
  onProgress() {},
});
const ms = performance.now() - t;
clearInterval(sampler);
if (result.completed !== 1 || result.items[0].frames !== frames)
  throw new Error(`the render did not complete: ${JSON.stringify(result)}`);
console.log(
  JSON.stringify({
    ms,
    chunks: Math.ceil(frames / chunkSize),
    docBytes: JSON.stringify(doc).length,
    heapPeak: peak.heap - base.heapUsed,
    rssPeak: peak.rss - base.rss,
  }),
);
process.exit(0);
