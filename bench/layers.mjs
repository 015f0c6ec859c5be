// Layer inserts: the time and undo memory of one layer.addSolid into a composition of 100 layers (the baseline)
// and of 2,000 layers, in the same process. An insert should cost about the same at both sizes: the ratio is the
// figure to watch (it was about 20x when every insert shifted, and recorded a patch for, every layer below it).
// Also one 2,000-step command_batch-sized run of inserts. Uses dist/ (or EFFECTCRAFT_DIST, e.g. an older build).
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, median } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist');
const { Engine, engineCommands } = await import(pathToFileURL(join(dist, 'engine/index.js')).href);
const { createNodePorts } = await import(pathToFileURL(join(dist, 'engine/node-ports.js')).href);

const SAMPLES = 200;

async function compWith(layers) {
  const engine = new Engine({ commands: engineCommands(), ports: createNodePorts(), historyLimit: 10_000 });
  const ok = async (id, params) => {
    const r = await engine.execute(id, params);
    if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
    return r.result;
  };
  await ok('comp.new', { name: 'Bench', width: 1920, height: 1080 });
  for (let i = 0; i < layers; i++) await ok('layer.addSolid', { color: '#336699', width: 100, height: 100 });
  return { engine, ok };
}

/** Per-insert milliseconds at a fixed size (each insert is undone, untimed), and heap bytes per kept step. */
async function measure(layers) {
  const { ok } = await compWith(layers);
  const add = () => ok('layer.addSolid', { color: '#996633', width: 100, height: 100 });
  for (let i = 0; i < 20; i++) await add().then(() => ok('edit.undo', {}));
  const times = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = process.hrtime.bigint();
    await add();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    await ok('edit.undo', {});
  }
  // Memory: keep SAMPLES steps in the history (redo cleared by each new edit) and weigh them.
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < SAMPLES; i++) await add();
  globalThis.gc?.();
  const perStep = (process.memoryUsage().heapUsed - before) / SAMPLES;
  return { ms: median(times), perStep };
}

const small = await measure(100);
const large = await measure(2000);
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
console.log(`layer inserts (${SAMPLES} samples each, medians; ${process.env.EFFECTCRAFT_DIST ?? 'dist'})`);
console.log(`  layer.addSolid at   100 layers  ${fmt(small.ms)}  heap per undo step ${kb(small.perStep)}`);
console.log(
  `  layer.addSolid at 2,000 layers  ${fmt(large.ms)}  heap per undo step ${kb(large.perStep)}  ratio ${(large.ms / small.ms).toFixed(2)}x time, ${(large.perStep / small.perStep).toFixed(1)}x memory`,
);
const t = process.hrtime.bigint();
await compWith(2000);
console.log(
  `  2,000 inserts from empty        ${fmt(Number(process.hrtime.bigint() - t) / 1e6)} in all (one command_batch worth)`,
);
