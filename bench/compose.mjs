// Renderer benchmark on a 1920x1080 comp with 8 layers: solid background, three rotated/scaled
// semi-transparent layers, a blurred layer, a multiply layer and two text layers.
// Reports medians of >= 30 frames: compose (renderFrame, pixels read back), compose + PNG encode at zlib
// level 6 and 1, and frame.preview at max_side 768 (render at preview size + PNG + base64).
// Runs against the built dist (EFFECTCRAFT_DIST=.dist-x to use another build directory).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { fmt, median, sample } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist');
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { createSession } = await load('session.js');
const { createFrameRenderer, encodeStill } = await load('render/index.js');
const { createNodePorts } = await load('engine/node-ports.js');

const { engine } = createSession();
const ok = async (id, params) => {
  const r = await engine.execute(id, params);
  if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
  return r.result;
};
const set = (layer, property, value) => ok('property.set', { layer, property, value });
const key = (layer, property, time, value) => ok('property.setKeyframe', { layer, property, time, value });

const comp = await ok('comp.new', { name: 'Bench', width: 1920, height: 1080, duration: 10, frameRate: 30 });
await ok('layer.addSolid', { color: '#1d2b3a', name: 'Background' });
const a = await ok('layer.addSolid', { color: '#e04050', width: 600, height: 400, name: 'A' });
await set(a.id, 'transform.rotation', 15);
await set(a.id, 'transform.opacity', 70);
await key(a.id, 'transform.position', 0, [500, 400]);
await key(a.id, 'transform.position', 10, [1400, 600]);
const b = await ok('layer.addShape', {
  shape: { type: 'rectangle', size: [500, 300], roundness: 40 },
  fill: '#40c0a0',
  name: 'B',
});
await set(b.id, 'transform.scale', [140, 80]);
await set(b.id, 'transform.opacity', 60);
await key(b.id, 'transform.rotation', 0, -30);
await key(b.id, 'transform.rotation', 10, 330);
const c = await ok('layer.addShape', {
  shape: { type: 'ellipse', size: [700, 500] },
  fill: '#f0c040',
  name: 'C',
});
await set(c.id, 'transform.position', [1300, 300]);
await set(c.id, 'transform.scale', [80, 120]);
await set(c.id, 'transform.rotation', 40);
await set(c.id, 'transform.opacity', 50);
const blur = await ok('layer.addShape', {
  shape: { type: 'star', points: 5, outerRadius: 200, innerRadius: 90 },
  fill: '#8060ff',
  name: 'Blurred',
});
await set(blur.id, 'transform.position', [400, 800]);
await ok('effect.add', { layer: blur.id, effect: 'gaussianBlur', params: { radius: 12 } });
const mul = await ok('layer.addSolid', { color: '#a0a0ff', width: 900, height: 400, name: 'Multiply' });
await set(mul.id, 'transform.position', [1200, 800]);
await ok('layer.setBlendMode', { layer: mul.id, mode: 'multiply' });
const t1 = await ok('layer.addText', { text: 'EffectCraft', fontSize: 160, fontWeight: 700, name: 'Title' });
await key(t1.id, 'transform.position', 0, [960, 200]);
await key(t1.id, 'transform.position', 10, [960, 260]);
const t2 = await ok('layer.addText', {
  text: 'Skia compositor benchmark\n1920 x 1080, 8 layers',
  fontSize: 56,
  strokeColor: '#000000',
  strokeWidth: 3,
  name: 'Subtitle',
});
await set(t2.id, 'transform.position', [960, 960]);

const renderer = createFrameRenderer({ readFile: createNodePorts().readFile });
const doc = engine.document;
const N = 40;
const time = (i) => (i % 300) / 30;
// Yield to the event loop after each frame, as the render queue does: native buffers are freed only then.
const tick = () => new Promise((r) => setImmediate(r));
const render = async (i) => {
  const f = await renderer.renderFrame(doc, comp.id, time(i), { missingFootage: 'fail' });
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
