// `mcp --http` as a render node (docs/remote.md), over loopback with the bearer token, called with plain fetch
// (the 2026-07-28 wire as any client sends it) and with the official client (its own costs on top):
// - upload: a 100 MiB file sent as put_sample_begin + 8 MiB put_sample_chunk calls + put_sample_finish (the
//   client's sha256 and base64 included), against a plain HTTP PUT of the same bytes to a minimal Node server
//   in this script that streams them to a new file on the same disk and fsyncs it;
// - get_output: a file the node rendered (a 55 MiB ProRes file), fetched in 8 MiB get_output calls (one, then two
//   in flight), against a plain GET of the same
//   file from that minimal server.
// Medians of RUNS runs (after one warm-up) and the ratio (target: >= 0.5 of the plain transfer).
/* global fetch */
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { dist } from './_session.mjs';
import { median } from './stats.mjs';

const MiB = 1024 * 1024;
const SIZE = 100 * MiB;
const CHUNK = 8 * MiB;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TOKEN = randomBytes(32).toString('hex');
const exec = promisify(execFile);

const work = await mkdtemp(join(tmpdir(), 'ec-bench-remote-'));
const root = join(work, 'node');
const plainDir = join(work, 'plain');
await Promise.all([root, plainDir].map((d) => mkdir(d)));

// The render node.
const child = spawn(
  process.execPath,
  [join(dist, 'cli.js'), 'mcp', '--http', '0', '--token-env', 'BENCH_TOKEN', '--automation-write-root', root],
  { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, BENCH_TOKEN: TOKEN } },
);
const url = await new Promise((resolve, reject) => {
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    err += d;
    const m = /listening on (http\S+)/.exec(err);
    if (m) resolve(m[1]);
  });
  child.on('exit', (code) => reject(new Error(`node exited ${code}: ${err}`)));
});
const client = new Client({ name: 'bench-remote', version: '1' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  }),
);
/** A tool call through the official client. */
async function official(name, args) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent;
}

/** The same call as plain fetch sends it (2026-07-28 wire: _meta envelope, Mcp-Method/Mcp-Name headers). */
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
let rawId = 1;
async function raw(name, args) {
  // The bytes' base64 goes in as a one-byte string, spliced into the JSON as a Buffer: no UTF-8 encoding pass
  // over the large string, as a client written for throughput would send it.
  const { content_b64, ...rest } = args;
  const head = JSON.stringify({
    jsonrpc: '2.0',
    id: rawId++,
    method: 'tools/call',
    params: { name, arguments: { ...rest, content_b64: '\u0000' }, _meta: META },
  });
  const [before, after] = head.split('\\u0000');
  const body =
    content_b64 === undefined
      ? JSON.stringify({
          jsonrpc: '2.0',
          id: rawId++,
          method: 'tools/call',
          params: { name, arguments: args, _meta: META },
        })
      : Buffer.concat([Buffer.from(before), Buffer.from(content_b64, 'latin1'), Buffer.from(after)]);
  const r = await fetch(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${TOKEN}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
  });
  const text = await r.text();
  const msg = r.headers.get('content-type')?.includes('event-stream')
    ? JSON.parse(
        text
          .split('\n')
          .find((l) => l.startsWith('data:'))
          .slice(5),
      )
    : JSON.parse(text);
  if (msg.error || msg.result.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
  return msg.result.structuredContent;
}
const call = raw;

// The baseline: a minimal server that stores a PUT body and serves a file by GET. Each PUT is stored as a file
// of its own and kept, as the node keeps each sample: overwriting one file would reuse the page cache the last
// run filled, and on this machine (a VM whose freed memory goes back to the host) writing into recycled pages
// took about 2 ms per 8 MiB against about 25 ms into fresh ones, which the node's new files must take.
let serveFile = '';
let puts = 0;
const plain = createServer(async (req, res) => {
  if (req.method === 'PUT') {
    const path = join(plainDir, `put-${puts++}.bin`);
    await pipeline(req, createWriteStream(path));
    const f = await open(path, 'r');
    await f.sync();
    await f.close();
    res.end('ok');
  } else await pipeline(createReadStream(serveFile), res);
});
await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve));
const plainUrl = `http://127.0.0.1:${plain.address().port}/`;

/** Uploads with `inFlight` chunk calls at a time (the convention allows any order). */
async function uploadViaNode(bytes, inFlight = 1, call = raw) {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const { upload_id } = await call('put_sample_begin', { filename: 'big.bin', sha256, size: bytes.length });
  let next = 0;
  const count = Math.ceil(bytes.length / CHUNK);
  const lane = async () => {
    for (let seq = next++; seq < count; seq = next++) {
      const content_b64 = bytes.subarray(seq * CHUNK, (seq + 1) * CHUNK).toString('base64');
      await call('put_sample_chunk', { upload_id, seq, content_b64 });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return (await call('put_sample_finish', { upload_id })).path;
}

async function timed(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

const mbps = (bytes, s) => bytes / MiB / s;

// Upload: each run sends different bytes (stored once per sha256, so the same bytes would be a no-op).
const bytes = randomBytes(SIZE);
const node = [];
const piped = [];
const viaClient = [];
const put = [];
for (let run = 0; run <= RUNS; run++) {
  bytes.writeUInt32LE(3 * run, 0);
  const tNode = await timed(() => uploadViaNode(bytes));
  bytes.writeUInt32LE(3 * run + 1, 0);
  const tPiped = await timed(() => uploadViaNode(bytes, 2));
  bytes.writeUInt32LE(3 * run + 2, 0);
  const tClient = await timed(() => uploadViaNode(bytes, 1, official));
  const tPut = await timed(async () => {
    const r = await fetch(plainUrl, { method: 'PUT', body: bytes });
    await r.text();
  });
  if (run === 0) continue; // warm-up
  node.push(mbps(SIZE, tNode));
  piped.push(mbps(SIZE, tPiped));
  viaClient.push(mbps(SIZE, tClient));
  put.push(mbps(SIZE, tPut));
}
const up = { node: median(node), piped: median(piped), client: median(viaClient), put: median(put) };
const ratio = (x) => (x / up.put).toFixed(2);
console.log(
  `upload 100 MiB in 8 MiB chunks (client sha256 + base64 included), plain PUT ${up.put.toFixed(0)} MiB/s; ` +
    `fetch, one call at a time ${up.node.toFixed(0)} MiB/s (ratio ${ratio(up.node)}); fetch, two in flight ` +
    `${up.piped.toFixed(0)} MiB/s (ratio ${ratio(up.piped)}); official client ${up.client.toFixed(0)} MiB/s ` +
    `(ratio ${ratio(up.client)}). Target ratio >= 0.5; medians of ${RUNS}.`,
);

// get_output: the node renders a noisy 720p clip to ProRes (about 100 MiB), a file it wrote itself.
const clip = join(work, 'noise.avi');
await exec('ffmpeg', [
  ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
  'testsrc2=s=1280x720:r=24,noise=alls=100:allf=t',
  ...['-frames:v', '120', '-c:v', 'mjpeg', '-q:v', '3', clip],
]);
const clipBytes = await readFile(clip);
const footagePath = await uploadViaNode(clipBytes);
const run = (id, params) => call('command_run', { id, params });
await run('comp.new', { name: 'B', width: 1280, height: 720, frameRate: 24, duration: 5 });
const footage = await run('file.import', { path: footagePath });
await run('layer.addFootage', { footage: footage.id });
const output = join(root, 'out', 'render.mov');
await run('renderQueue.add', { comp: 'B', output });
await run('renderQueue.render', {});
serveFile = output;
const outSize = (await stat(output)).size;

/**
 * Fetches the output in 8 MiB get_output calls, `inFlight` at a time (a client written for throughput asks for
 * the next slices while the last ones travel: the first reply gives the size, then the offsets are known).
 */
async function fetchOutput(call, inFlight = 1) {
  const first = await call('get_output', { path: output, offset: 0 });
  Buffer.from(first.content_b64, 'base64');
  const offsets = [];
  for (let o = first.length; o < first.size; o += first.length) offsets.push(o);
  const lane = async () => {
    for (let o = offsets.shift(); o !== undefined; o = offsets.shift()) {
      const r = await call('get_output', { path: output, offset: o });
      Buffer.from(r.content_b64, 'base64');
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
}
const got = [];
const gotPiped = [];
const gotClient = [];
const get = [];
for (let i = 0; i <= RUNS; i++) {
  const tNode = await timed(() => fetchOutput(raw));
  const tPiped = await timed(() => fetchOutput(raw, 2));
  const tClient = await timed(() => fetchOutput(official));
  const tGet = await timed(async () => (await fetch(plainUrl)).arrayBuffer());
  if (i === 0) continue;
  got.push(mbps(outSize, tNode));
  gotPiped.push(mbps(outSize, tPiped));
  gotClient.push(mbps(outSize, tClient));
  get.push(mbps(outSize, tGet));
}
const down = { node: median(got), piped: median(gotPiped), client: median(gotClient), get: median(get) };
console.log(
  `get_output of a ${(outSize / MiB).toFixed(1)} MiB render in 8 MiB calls, plain GET ${down.get.toFixed(0)} MiB/s; ` +
    `fetch, one call at a time ${down.node.toFixed(0)} MiB/s (ratio ${(down.node / down.get).toFixed(2)}); ` +
    `fetch, two in flight ${down.piped.toFixed(0)} MiB/s (ratio ${(down.piped / down.get).toFixed(2)}); official client ` +
    `${down.client.toFixed(0)} MiB/s (ratio ${(down.client / down.get).toFixed(2)}). Target ratio >= 0.5; medians of ${RUNS}.`,
);

await client.close();
plain.close();
child.kill('SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));
await rm(work, { recursive: true, force: true });
