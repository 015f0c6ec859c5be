/* global document, MutationObserver, performance, requestAnimationFrame -- page.evaluate bodies run in the browser */
// The studio, three real processes: `effectcraft-cli app`, an agent on `effectcraft-cli mcp --bridge` (the
// official MCP client over stdio), and the studio page in headless Chromium (playwright-core).
//  - Edit to pixels: an agent's command_run (a property.set on the 8-layer 1920x1080 comp) until the page's
//    viewer canvas shows a frame drawn from that edit (its data-revision rises), median and p95. Baselines from
//    the same run: the command_run round trip alone, and the app drawing that frame alone (x-render-ms).
//  - Playback: the fps the viewer reaches playing the comp at 960x540 (half resolution) from its frame cache
//    after the first pass, against the page's own display rate (requestAnimationFrame) as the ceiling.
// Needs chromium (apt-get install chromium) or $EFFECTCRAFT_CHROMIUM, found as the app finds it; skipped without.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildComp8 } from './_comp8.mjs';
import { fmt, median, percentile } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist', 'cli.js');

const { findBrowser, HEADLESS_ARGS } = await import(
  join(root, process.env.EFFECTCRAFT_DIST ?? 'dist', 'studio/server/headless-browser.js')
);
const found = await findBrowser(process.env.PATH ?? '', process.env.EFFECTCRAFT_CHROMIUM || undefined);
const chromiumPath = found.found ? found.path : null;
if (!chromiumPath) {
  console.log('studio: skipped (no chromium on PATH; apt-get install chromium)');
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'ec-bench-studio-'));
const tokenFile = join(dir, 'app.token');
const app = spawn(process.execPath, [cli, 'app', '--port', '0', '--token-file', tokenFile], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
app.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
while (!/studio: (http\S+)/.test(stderr)) await once(app.stderr, 'data');
const link = /studio: (http\S+)/.exec(stderr)[1];
const port = /listening on ws:\/\/[^:]+:(\d+)/.exec(stderr)[1];

const client = new Client({ name: 'bench-studio', version: '1' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--bridge', port, '--bridge-token-file', tokenFile],
    stderr: 'ignore',
  }),
);
async function ok(id, params = {}) {
  const r = await client.callTool({ name: 'command_run', arguments: { id, params } });
  if (r.isError) throw new Error(`${id}: ${JSON.stringify(r.structuredContent ?? r.content)}`);
  return r.structuredContent?.result ?? r.structuredContent;
}
await buildComp8(ok, { duration: 4 });

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: HEADLESS_ARGS,
});
const page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
await page.goto(link);
const canvas = page.locator('[data-panel="Viewer"] canvas[data-revision]');
await canvas.waitFor();
const revision = async () => Number(await canvas.getAttribute('data-revision'));

/** Resolves (in the page) once the viewer canvas shows a revision above `above`. */
const shown = (above) =>
  page.evaluate(
    (above) =>
      new Promise((resolve) => {
        const el = document.querySelector('[data-panel="Viewer"] canvas[data-revision]');
        const done = () =>
          Number(el.getAttribute('data-revision')) > above && (observer.disconnect(), resolve(true));
        const observer = new MutationObserver(done);
        observer.observe(el, { attributes: true, attributeFilter: ['data-revision'] });
        done();
      }),
    above,
  );

const layers = (await client.callTool({ name: 'doc_inspect', arguments: {} })).structuredContent;
const target = JSON.stringify(layers).match(/"id":"(layer_\d+)","name":"A"/)?.[1] ?? 'A';

// Every edit must change the document (an unchanged value draws no new frame): alternate between two values.
let edits = 0;
const nextOpacity = () => (edits++ % 2 ? 70 : 30);

// Edit to pixels.
const N = 40;
const editToPixels = [];
const roundTrip = [];
for (let i = 0; i < N + 5; i++) {
  const before = await revision();
  const t0 = performance.now();
  const waiting = shown(before);
  await ok('property.set', { layer: target, property: 'transform.opacity', value: nextOpacity() });
  const t1 = performance.now();
  await waiting;
  const t2 = performance.now();
  if (i >= 5) {
    editToPixels.push(t2 - t0);
    roundTrip.push(t1 - t0);
  }
}
// The app drawing one viewer frame alone, at the scale the page asked for (read from the page's own requests).
const renderMs = [];
page.on('response', (r) => {
  const ms = r.headers()['x-render-ms'];
  if (ms) renderMs.push(Number(ms));
});
for (let i = 0; i < 15; i++) {
  const before = await revision();
  const waiting = shown(before);
  await ok('property.set', { layer: target, property: 'transform.opacity', value: nextOpacity() });
  await waiting;
}
const medRender = median(renderMs);
console.log(
  `edit to pixels (command_run -> viewer canvas, 1920x1080, 8 layers): median ${fmt(median(editToPixels))}, p95 ${fmt(percentile(editToPixels, 95))} (n=${N}; target median <= 100 ms)`,
);
console.log(
  `  baselines: command_run round trip median ${fmt(median(roundTrip))}; drawing the viewer frame median ${fmt(medRender)}; edit-to-pixels / (round trip + draw) = ${(median(editToPixels) / (median(roundTrip) + medRender)).toFixed(2)}x`,
);

// Playback at 960x540: half resolution of the 1080p comp, in a viewer at 100 % so the frame is not rescaled.
await client.callTool({ name: 'ui_set', arguments: { control: 'Viewer/resolution', value: 'half' } });
const displayFps = await page.evaluate(
  () =>
    new Promise((resolve) => {
      let n = 0;
      const t0 = performance.now();
      const tick = () => (
        ++n,
        performance.now() - t0 < 1000
          ? requestAnimationFrame(tick)
          : resolve(n / ((performance.now() - t0) / 1000))
      );
      requestAnimationFrame(tick);
    }),
);
const transport = page.locator('[data-fps]').first();
const play = async (seconds) => {
  await client.callTool({ name: 'ui_set', arguments: { control: 'Transport/frame', value: 0 } });
  await client.callTool({ name: 'ui_set', arguments: { control: 'Transport/playing', value: true } });
  await page.waitForTimeout(seconds * 1000);
  const fps = Number(await transport.getAttribute('data-fps'));
  await client.callTool({ name: 'ui_set', arguments: { control: 'Transport/playing', value: false } });
  return fps;
};
const firstPass = await play(4.5);
const cached = [];
for (let i = 0; i < 3; i++) cached.push(await play(2));
const size = await canvas.evaluate((c) => `${c.width}x${c.height}`);
console.log(
  `playback (frame cache, viewer frames ${size}): median ${median(cached).toFixed(1)} fps after the first pass (first pass ${firstPass.toFixed(1)} fps; target >= 30 fps); display ceiling ${displayFps.toFixed(0)} fps, ratio ${(median(cached) / 30).toFixed(2)}x the 30 fps comp rate`,
);

await browser.close();
await client.close();
app.kill('SIGTERM');
await once(app, 'exit');
rmSync(dir, { recursive: true, force: true });
