// Renders as MCP tasks against the same render blocking, over real stdio (`effectcraft-cli mcp`, raw JSON-RPC
// lines, 2026-07-28 era): the whole render blocking (undeclared client with a progress token, the baseline) and
// as a task (the CreateTaskResult, then tasks/get every 50 ms until completed), the time to the CreateTaskResult,
// to the first tasks/get showing frame progress (against the blocking render's first progress notification),
// and the size in bytes of each result shape on the wire.
// Uses dist/ (or EFFECTCRAFT_DIST).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dist } from './_session.mjs';
import { fmt, median } from './stats.mjs';

const FRAMES = 120;
const RUNS = 5;
const POLL_MS = 50;
const TASKS = 'io.modelcontextprotocol/tasks';

const child = spawn(process.execPath, [join(dist, 'cli.js'), 'mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = new Map();
let onProgress;
let buf = '';
child.stdout.setEncoding('utf8').on('data', (d) => {
  buf += d;
  for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    const msg = JSON.parse(line);
    if (msg.method === 'notifications/progress') onProgress?.(msg.params);
    waiting.get(msg.id)?.({ msg, bytes: Buffer.byteLength(line) });
    waiting.delete(msg.id);
  }
});

const meta = (declare) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': declare ? { extensions: { [TASKS]: {} } } : {},
});
let nextId = 1;
/** One request; resolves with the reply and its size on the wire (one JSON line). */
function request(method, params, declare = true, extraMeta = {}) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, ({ msg, bytes }) =>
      msg.error
        ? reject(new Error(`${method}: ${msg.error.message}`))
        : resolve({ result: msg.result, bytes }),
    );
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method,
        params: { ...params, _meta: { ...meta(declare), ...extraMeta } },
      }) + '\n',
    );
  });
}
const render = (declare, extraMeta = {}) =>
  request('tools/call', { name: 'command_run', arguments: { id: 'renderQueue.render' } }, declare, extraMeta);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const out = mkdtempSync(join(tmpdir(), 'ec-bench-tasks-'));
await request('tools/call', {
  name: 'command_batch',
  arguments: {
    steps: [
      {
        id: 'comp.new',
        params: { name: 'T', width: 640, height: 360, frameRate: 30, duration: FRAMES / 30 },
      },
      { id: 'layer.addSolid', params: { name: 'Bg', color: '#3366cc' } },
      { id: 'layer.addText', params: { text: 'EffectCraft' } },
      { id: 'renderQueue.add', params: { comp: 'T', output: join(out, 'f_[#####].png') } },
    ],
  },
});

const blocking = [];
const blockingToProgress = [];
const asTask = [];
const toCreate = [];
const toProgress = [];
const sizes = {};
await render(false); // warm-up: workers started, fonts loaded
for (let i = 0; i < RUNS; i++) {
  let t = performance.now();
  // The baseline for progress: a blocking render's first progress notification past frame 0.
  let first;
  onProgress = (p) => (first ??= /frame [1-9]/.test(p.message ?? '') ? performance.now() - t : undefined);
  const plain = await render(false, { progressToken: `p${i}` });
  blocking.push(performance.now() - t);
  blockingToProgress.push(first);
  onProgress = undefined;
  sizes['blocking tools/call result'] = plain.bytes;

  t = performance.now();
  const created = await render(true);
  toCreate.push(performance.now() - t);
  sizes['CreateTaskResult'] = created.bytes;
  const taskId = created.result.taskId;
  let sawProgress = false;
  for (;;) {
    const got = await request('tasks/get', { taskId });
    if (!sawProgress && /frame [1-9]/.test(got.result.statusMessage ?? '')) {
      sawProgress = true;
      toProgress.push(performance.now() - t);
      sizes['tasks/get working'] = got.bytes;
    }
    if (got.result.status !== 'working') {
      asTask.push(performance.now() - t);
      sizes['tasks/get completed (result inlined)'] = got.bytes;
      break;
    }
    await sleep(POLL_MS);
  }
}
// The cancel acknowledgement's size: a task cancelled while it renders.
const created = await render(true);
for (;;) {
  const got = await request('tasks/get', { taskId: created.result.taskId });
  if (/frame [1-9]/.test(got.result.statusMessage ?? '')) break;
  await sleep(POLL_MS);
}
sizes['tasks/cancel ack'] = (await request('tasks/cancel', { taskId: created.result.taskId })).bytes;

const b = median(blocking);
const k = median(asTask);
console.log(`render ${FRAMES} frames 640x360 PNG through command_run, median of ${RUNS}:`);
console.log(`  blocking (baseline): ${fmt(b)}`);
console.log(
  `  as a task, polled every ${POLL_MS} ms until completed: ${fmt(k)} (${(k / b).toFixed(2)}x the blocking render)`,
);
console.log(`  CreateTaskResult answered after ${fmt(median(toCreate))}`);
console.log(
  `  first frame progress: tasks/get statusMessage after ${fmt(median(toProgress))}, blocking notifications/progress after ${fmt(median(blockingToProgress))}`,
);
console.log('bytes on the wire (one JSON-RPC line):');
for (const [shape, bytes] of Object.entries(sizes)) console.log(`  ${shape}: ${bytes} B`);

child.stdin.end();
await new Promise((resolve) => child.on('exit', resolve));
rmSync(out, { recursive: true, force: true });
