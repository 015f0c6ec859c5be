// Preview benchmark, against the built dist (EFFECTCRAFT_DIST=.dist-x for another build directory).
// 1. The 1920x1080 8-layer comp (bench/_comp8.mjs) previewed at max_side 768 and rendered at full size:
//    drawn on the main thread (createFrameRenderer) vs in the session's preview worker (createPreviewWorker),
//    PNG level 6 encoding included as frame.preview does it. Medians and the worker's overhead ratio.
// 2. Precomp fan-outs of 16x16 comps: 10 identical precomp layers per level (memoised: one compose per level)
//    vs the same fan-out with every layer offset in time (nothing can be shared: every nested frame is composed,
//    which is what every fan-out cost before memoisation). Same run, same machine: medians and the ratio.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { buildComp8 } from './_comp8.mjs';
import { fmt, median, sample } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist');
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { createSession } = await load('session.js');
const { createFrameRenderer } = await load('render/index.js');
const { encodeFrame } = await load('render/encode.js');
const { createPreviewWorker } = await load('render/preview/client.js');
const { createNodePorts } = await load('engine/node-ports.js');

const line = (label, ms) => console.log(`  ${label.padEnd(44)} ${fmt(ms).padStart(10)}`);
const ratio = (label, a, b) => console.log(`  ${label.padEnd(44)} ${(a / b).toFixed(2).padStart(8)}x`);
const tick = () => new Promise((r) => setImmediate(r));

/** A session's engine and `ok(id, params)`, which runs a command and returns its result. */
function session() {
  const { engine } = createSession();
  const ok = async (id, params) => {
    const r = await engine.execute(id, params);
    if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
    return r.result;
  };
  return { engine, ok };
}

// 1. Main thread vs preview worker.
const { engine, ok } = session();
const compId = await buildComp8(ok);
const doc = engine.document;
const readFile = createNodePorts().readFile;
const main = createFrameRenderer({ readFile });
const worker = createPreviewWorker({ readFile });
const N = 30;
const time = (i) => (i % 300) / 30;
const PNG6 = { kind: 'png', level: 6 };
const frameWith = (renderer, scale) => async (i) => {
  const f = await renderer.renderFrame(doc, compId, time(i), { scale, missingFootage: 'placeholder' });
  await encodeFrame(f.rgba, f.width, f.height, f.premultiplied, PNG6);
  await tick();
};
console.log(`preview, 1920x1080, 8 layers, medians of ${N} frames (PNG level 6 included)`);
for (const [label, scale] of [
  ['max_side 768', 0.4],
  ['full size', 1],
]) {
  const onMain = median(await sample(frameWith(main, scale), N));
  const inWorker = median(await sample(frameWith(worker, scale), N));
  line(`${label}: main thread`, onMain);
  line(`${label}: preview worker`, inWorker);
  ratio(`${label}: worker / main thread`, inWorker, onMain);
}
const viaCommand = await sample((i) => engine.execute('frame.preview', { time: time(i), max_side: 768 }), N);
line('frame.preview max_side 768 (session, worker)', median(viaCommand));
main.dispose();
worker.dispose();

// 2. Fan-outs: memoised vs nothing shared.
async function fanOut(levels, width, offset) {
  const { engine: e, ok: run } = session();
  const comp = (name) => run('comp.new', { name, width: 16, height: 16, duration: 10, frameRate: 10 });
  await comp('F0');
  await run('layer.addSolid', { comp: 'F0', color: '#204080' });
  for (let l = 1; l <= levels; l++) {
    await comp(`F${l}`);
    for (let i = 0; i < width; i++) {
      const name = `P${l}_${i}`;
      await run('layer.addPrecomp', { comp: `F${l}`, source: `F${l - 1}`, name });
      // Offsets as in test/helpers/fan-out.ts: every path through the levels shows its own time.
      const startTime = -i * width ** (l - 1) * 2 ** -20;
      if (offset && i > 0) await run('layer.setTiming', { comp: `F${l}`, layer: name, startTime });
    }
  }
  const top = e.document.items.find((i) => i.name === `F${levels}`).id;
  return { doc: e.document, top };
}
const renderer = createFrameRenderer({ readFile });
const M = 15;
const timeFrame = async ({ doc: d, top }) =>
  median(await sample(() => renderer.renderFrame(d, top, 0, { missingFootage: 'fail' }).then(tick), M, 3));
console.log(`\nprecomp fan-outs of 16x16 comps, 10 layers a level, medians of ${M} frames`);
const shared3 = await timeFrame(await fanOut(3, 10, false));
const unshared3 = await timeFrame(await fanOut(3, 10, true));
line('3 levels, memoised (3 nested composes)', shared3);
line('3 levels, nothing shared (1,110 composes)', unshared3);
ratio('3 levels: nothing shared / memoised', unshared3, shared3);
const shared6 = await timeFrame(await fanOut(6, 10, false));
line('6 levels, memoised (6 nested composes)', shared6);
// Before memoisation the 6-level fan-out composed every one of its 1,111,110 nested frames.
const perCompose = unshared3 / 1110;
line('6 levels, nothing shared (estimate: 1,111,110 ×)', perCompose * 1_111_110);
ratio('6 levels: estimate without / memoised', perCompose * 1_111_110, shared6);
renderer.dispose();
