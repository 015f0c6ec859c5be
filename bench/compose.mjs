// Renderer benchmark on a 1920x1080 comp with 8 layers: solid background, three rotated/scaled
// semi-transparent layers, a blurred layer, a multiply layer and two text layers.
// Reports medians of >= 30 frames: compose (renderFrame, pixels read back), compose + PNG encode at zlib
// level 6 and 1, and frame.preview at max_side 768 (render at preview size + PNG + base64).
// Runs against the built dist (EFFECTCRAFT_DIST=.dist-x to use another build directory).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { buildComp8 } from './_comp8.mjs';
import { fmt, median, sample } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist');
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { createSession } = await load('session.js');
const { createFrameRenderer, encodeStill } = await load('render/index.js');
const { createNodePorts } = await load('node-io/engine-ports.js');

const { engine } = createSession();
const ok = async (id, params) => {
  const r = await engine.execute(id, params);
  if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
  return r.result;
};
const compId = await buildComp8(ok);

const renderer = createFrameRenderer({ readFile: createNodePorts().readFile });
const doc = engine.document;
const N = 40;
const time = (i) => (i % 300) / 30;
// Yield to the event loop after each frame, as the render queue does: native buffers are freed only then.
const tick = () => new Promise((r) => setImmediate(r));
const render = async (i) => {
  const f = await renderer.renderFrame(doc, compId, time(i), { missingFootage: 'fail' });
  await tick();
  return f;
};

const compose = await sample(render, N);
const png6 = await sample(async (i) => encodeStill(await render(i), 'png', { pngLevel: 6 }), N);
const png1 = await sample(async (i) => encodeStill(await render(i), 'png', { pngLevel: 1 }), N);
const preview = await sample((i) => ok('frame.preview', { time: time(i), max_side: 768 }), N);

const line = (label, s, target) =>
  console.log(
    `  ${label.padEnd(34)} ${fmt(median(s)).padStart(9)}${target ? `  (target <= ${target} ms: ${median(s) <= target ? 'met' : 'MISSED'})` : ''}`,
  );
console.log(`renderer, 1920x1080, 8 layers, medians of ${N} frames`);
line('compose (renderFrame + readback)', compose, 15);
line('compose + PNG level 6', png6);
line('compose + PNG level 1', png1);
line('frame.preview max_side 768', preview, 30);
// BENCH_FRAME=/path.png writes the frame at t=1 s, to look at what was measured.
if (process.env.BENCH_FRAME) {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(process.env.BENCH_FRAME, await encodeStill(await render(30), 'png'));
}
renderer.dispose();
