// MCP over real stdio (`effectcraft-cli mcp` as a child process, raw JSON-RPC lines, 2025 era):
// round-trip latency of command_run for a simple edit (median, p99), one 1,000-step command_batch,
// and render_preview (1080p comp, 512px preview) through MCP. Uses dist/ (or EFFECTCRAFT_DIST).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, median, percentile, sample } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist', 'cli.js');

const child = spawn(process.execPath, [cli, 'mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = new Map();
let buf = '';
child.stdout.setEncoding('utf8').on('data', (d) => {
  buf += d;
  for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
    const msg = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
  }
});
let nextId = 1;
function request(method, params) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
}
async function call(name, args) {
  const r = await request('tools/call', { name, arguments: args });
  if (r.error || r.result.isError)
    throw new Error(`${name} failed: ${JSON.stringify(r.error ?? r.result.content)}`);
  return r.result;
}

await request('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1' },
});
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
await call('command_run', { id: 'comp.new', params: { name: 'Bench', width: 1920, height: 1080 } });
await call('command_run', { id: 'layer.addSolid', params: { name: 'Bg', color: '#3366cc' } });
await call('command_run', { id: 'layer.addText', params: { text: 'EffectCraft' } });

const edit = await sample(
  (i) => call('command_run', { id: 'comp.setSettings', params: { duration: 5 + (i % 5) } }),
  500,
  50,
);
console.log(
  `command_run (comp.setSettings) round trip: median ${fmt(median(edit))}, p99 ${fmt(percentile(edit, 99))} (n=${edit.length})`,
);

const steps = Array.from({ length: 1000 }, (_, i) => ({
  id: 'comp.setSettings',
  params: { duration: 5 + (i % 5) },
}));
const batch = await sample(() => call('command_batch', { steps }), 5, 1);
console.log(
  `command_batch 1,000 steps: median ${fmt(median(batch))} per call, ${fmt(median(batch) / 1000)} per step (n=${batch.length})`,
);

const preview = await sample(() => call('render_preview', { max_side: 512 }), 30, 3);
console.log(
  `render_preview 1920x1080 -> 512px PNG: median ${fmt(median(preview))}, p99 ${fmt(percentile(preview, 99))} (n=${preview.length})`,
);

child.stdin.end();
await new Promise((r) => child.on('exit', r));
