/**
 * `mcp --http` as a render node (docs/remote.md): the official client uploads a sample in chunks, renders it
 * and fetches the output back; what a remote caller must not be able to do is refused.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { connect as connectTcp } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { tempDir } from '../helpers/tmp.js';
import {
  CHUNK,
  TOKEN,
  call,
  connect,
  download,
  downloadInParallel,
  errorCode,
  sha256,
  slowReaderCall,
  abandonedCall,
  startNode,
  uploadChunked,
} from './remote-helpers.js';

const exec = promisify(execFile);
const UPLOAD_TOOLS = [
  'put_sample',
  'put_sample_begin',
  'put_sample_chunk',
  'put_sample_finish',
  'put_sample_abort',
];

/** A raw-video clip of about 22 MB (96 frames of 320x240 RGB), so it takes three 8 MiB chunks. */
async function bigClip(dir: string): Promise<string> {
  const out = join(dir, 'clip.avi');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=24'],
    ...['-frames:v', '96', '-c:v', 'rawvideo', '-pix_fmt', 'rgb24', out],
  ]);
  return out;
}

const run = (client: Client, id: string, params: Record<string, unknown>) =>
  call<Record<string, unknown>>(client, 'command_run', { id, params });

describe('mcp --http as a render node', () => {
  itWithFfmpeg(
    'uploads a 20 MiB clip in chunks (out of order, one resent), renders it and fetches the output by sha256',
    async () => {
      const root = await tempDir('ec-node-');
      const clientSide = await tempDir('ec-client-');
      const node = await startNode(['--automation-write-root', root]);
      const client = await connect(node.url);
      const caps = await call<{ tools: { name: string; available: boolean }[]; remote: unknown }>(
        client,
        'capabilities',
        {},
      );
      for (const name of [...UPLOAD_TOOLS, 'get_output'])
        expect(caps.tools.find((t) => t.name === name)?.available, name).toBe(true);
      expect(caps.remote).toMatchObject({ uploads: { chunked_above_bytes: CHUNK } });

      const clip = await readFile(await bigClip(clientSide));
      expect(clip.length).toBeGreaterThan(20 * 1024 * 1024);
      // Three chunks: the last first, the middle one sent twice.
      const path = await uploadChunked(client, 'clip.avi', clip, [2, 1, 0, 1]);
      expect(path.startsWith(join(root, '.effectcraft-uploads'))).toBe(true);
      expect((await readFile(path)).equals(clip)).toBe(true);

      await run(client, 'comp.new', { name: 'R', width: 160, height: 120, frameRate: 24, duration: 1 });
      const footage = (await run(client, 'file.import', { path })) as { id: string };
      await run(client, 'layer.addFootage', { footage: footage.id });
      const output = join(root, 'out', 'render.mp4');
      await run(client, 'renderQueue.add', { comp: 'R', output });
      const rendered = (await run(client, 'renderQueue.render', { detail: 'files' })) as {
        completed: number;
        items: { sha256: Record<string, string> }[];
      };
      expect(rendered.completed).toBe(1);
      const expected = rendered.items[0]!.sha256[output]!;
      expect(expected).toMatch(/^[0-9a-f]{64}$/);

      const got = await download(client, output, 4096);
      expect(got.calls).toBeGreaterThan(1);
      expect(sha256(got.bytes)).toBe(expected);
      expect(got.sha256).toBe(expected);
      await client.close();
    },
    120_000,
  );

  itWithFfmpeg(
    'serves get_output calls in flight at once each their own bytes, while one stalls on a slow reader',
    async () => {
      const root = await tempDir('ec-node-');
      const node = await startNode(['--automation-write-root', root]);
      const client = await connect(node.url);
      // A noisy clip rendered to ProRes: over two 8 MiB chunks, each far more base64 than a socket holds.
      const clip = join(await tempDir('ec-client-'), 'noise.avi');
      await exec('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
        'testsrc2=s=1280x720:r=24,noise=alls=100:allf=t',
        ...['-frames:v', '36', '-c:v', 'mjpeg', '-q:v', '3', clip],
      ]);
      const path = await uploadChunked(client, 'noise.avi', await readFile(clip));
      await run(client, 'comp.new', { name: 'N', width: 1280, height: 720, frameRate: 24, duration: 1.5 });
      const footage = (await run(client, 'file.import', { path })) as { id: string };
      await run(client, 'layer.addFootage', { footage: footage.id });
      const output = join(root, 'noise.mov');
      await run(client, 'renderQueue.add', { comp: 'N', output });
      await run(client, 'renderQueue.render', {});
      const onDisk = await readFile(output);
      expect(onDisk.length).toBeGreaterThan(2 * CHUNK);

      // The first chunk's answer waits on a reader that does not read for a while; the second chunk is fetched
      // meanwhile. Memory the first answer still sends from must not be handed to the second call.
      const stalled = slowReaderCall(node.url, 'get_output', { path: output, offset: 0 }, 1500);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = await call<{ content_b64: string }>(client, 'get_output', {
        path: output,
        offset: CHUNK,
      });
      expect(Buffer.from(second.content_b64, 'base64').equals(onDisk.subarray(CHUNK, 2 * CHUNK))).toBe(true);
      const first = (await stalled) as { content_b64: string };
      expect(Buffer.from(first.content_b64, 'base64').equals(onDisk.subarray(0, CHUNK))).toBe(true);

      // Four calls in flight, three rounds, in calls of over four base64 slices (the writer's buffers go round).
      for (let round = 0; round < 3; round++)
        expect((await downloadInParallel(client, output, 1_000_000 + round, 4)).equals(onDisk)).toBe(true);

      // Clients that go away mid-answer: the node lives on and still serves the file whole.
      for (let i = 0; i < 4; i++) await abandonedCall(node.url, 'get_output', { path: output, offset: 0 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(node.child.exitCode).toBeNull();
      expect((await downloadInParallel(client, output, CHUNK, 2)).equals(onDisk)).toBe(true);
      await client.close();
    },
    240_000,
  );

  it.each([
    ['2025-11-25', false],
    ['2026-07-28', true],
  ])(
    'in the %s era, chunks decoded from the body store the exact bytes and get_output returns exactly a file',
    async (_era, modern) => {
      const root = await tempDir('ec-node-');
      const node = await startNode(['--automation-write-root', root]);
      const client = await connect(node.url, { modern });
      // Two chunks large enough for the node's upload fast path, in order, then out of order with a resend.
      const bytes = Buffer.from(Array.from({ length: CHUNK + 4321 }, (_, i) => (i * 7919) % 251));
      for (const order of [
        [0, 1],
        [1, 0, 1],
      ]) {
        bytes[0] = order.length;
        const path = await uploadChunked(client, `sample-${order.length}.bin`, bytes, order);
        expect((await readFile(path)).equals(bytes)).toBe(true);
      }
      // A file the node wrote, fetched in small slices: every call's bytes go past the SDK's serialiser.
      const saved = join(root, 'p.ecproj');
      await run(client, 'comp.new', {
        name: `Comp ${'x'.repeat(900)}`,
        width: 64,
        height: 64,
        frameRate: 24,
      });
      await run(client, 'project.save', { path: saved });
      const onDisk = await readFile(saved);
      const got = await download(client, saved, 300);
      expect(got.calls).toBeGreaterThan(3);
      expect(got.bytes.equals(onDisk)).toBe(true);
      expect(got.sha256).toBe(sha256(onDisk));
      await client.close();
    },
    60_000,
  );

  it('refuses a request with no token or a wrong one with 401, and runs nothing', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root]);
    const save = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'command_run',
        arguments: { id: 'project.save', params: { path: join(root, 'x.ecproj') } },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Bearer ${TOKEN}x`]) {
      const r = await fetch(node.url, {
        method: 'POST',
        body: save,
        headers: authorization ? { ...headers, authorization } : headers,
      });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses filenames with path segments and tampered chunks, keeping nothing', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root]);
    const client = await connect(node.url);
    const bytes = Buffer.from('not really a png');
    for (const filename of ['../x.png', '/tmp/x.png', 'a/b.png'])
      expect(
        await errorCode(client, 'put_sample', {
          filename,
          content_b64: bytes.toString('base64'),
          sha256: sha256(bytes),
        }),
      ).toBe('bad_argument');
    const big = Buffer.alloc(CHUNK + 10, 7);
    const { upload_id } = await call<{ upload_id: string }>(client, 'put_sample_begin', {
      filename: 'big.raw',
      sha256: sha256(big),
      size: big.length,
    });
    const tampered = Buffer.from(big.subarray(CHUNK));
    tampered[0] = 8;
    await call(client, 'put_sample_chunk', {
      upload_id,
      seq: 0,
      content_b64: big.subarray(0, CHUNK).toString('base64'),
    });
    await call(client, 'put_sample_chunk', { upload_id, seq: 1, content_b64: tampered.toString('base64') });
    expect(await errorCode(client, 'put_sample_finish', { upload_id })).toBe('bad_argument');
    const left = await readdir(root, { recursive: true, withFileTypes: true });
    expect(left.filter((e) => e.isFile())).toEqual([]);
    await client.close();
  });

  it('refuses uploads without a write root, naming the flag, and says so on its manifest', async () => {
    const node = await startNode();
    const client = await connect(node.url);
    const bytes = Buffer.from('x');
    const r = await client.callTool({
      name: 'put_sample',
      arguments: { filename: 'x.png', content_b64: bytes.toString('base64'), sha256: sha256(bytes) },
    });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ code: 'not_configured' });
    expect((r.structuredContent as { remediation: string }).remediation).toContain('--automation-write-root');
    const caps = await call<{ tools: { name: string; available: boolean }[] }>(client, 'capabilities', {});
    expect(caps.tools.find((t) => t.name === 'put_sample')?.available).toBe(false);
    await client.close();
  });

  it('stores concurrent uploads of the same sha256 once', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root]);
    const clients = await Promise.all([1, 2, 3].map(() => connect(node.url)));
    const bytes = Buffer.alloc(100_000, 3);
    const args = { filename: 'same.png', content_b64: bytes.toString('base64'), sha256: sha256(bytes) };
    const paths = await Promise.all(clients.map((c) => call<{ path: string }>(c, 'put_sample', args)));
    expect(new Set(paths.map((p) => p.path)).size).toBe(1);
    const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files).toHaveLength(1);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('puts the frames of an image sequence in one folder, which file.import reads as a sequence', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root]);
    const client = await connect(node.url);
    const paths: string[] = [];
    for (let i = 0; i < 3; i++) {
      const png = await sharp({
        create: { width: 8, height: 8, channels: 3, background: { r: 40 * i, g: 0, b: 0 } },
      })
        .png()
        .toBuffer();
      const args = { filename: `f_000${i}.png`, content_b64: png.toString('base64'), sha256: sha256(png) };
      paths.push((await call<{ path: string }>(client, 'put_sample', { ...args, folder: 'shot1' })).path);
    }
    expect(new Set(paths.map((p) => dirname(p))).size).toBe(1);
    expect(basename(dirname(paths[0]!))).toBe('shot1');
    const imported = (await run(client, 'file.import', { path: paths[0]!, sequence: true })) as {
      media: { kind: string; frameCount: number };
    };
    expect(imported.media).toMatchObject({ kind: 'sequence', frameCount: 3 });
    // A folder is a name too.
    const one = Buffer.from('x');
    expect(
      await errorCode(client, 'put_sample', {
        filename: 'a.png',
        content_b64: one.toString('base64'),
        sha256: sha256(one),
        folder: '../up',
      }),
    ).toBe('bad_argument');
    await client.close();
  });

  it('leaves no upload files once stopped (SIGTERM), finished or in progress', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root]);
    const client = await connect(node.url);
    const bytes = Buffer.from('sample bytes');
    await call(client, 'put_sample', {
      filename: 's.png',
      content_b64: bytes.toString('base64'),
      sha256: sha256(bytes),
    });
    const { upload_id } = await call<{ upload_id: string }>(client, 'put_sample_begin', {
      filename: 'p.mov',
      sha256: sha256(bytes),
      size: 1000,
    });
    await call(client, 'put_sample_chunk', { upload_id, seq: 0, content_b64: bytes.toString('base64') });
    expect((await readdir(root, { recursive: true })).length).toBeGreaterThan(0);
    await client.close();
    node.child.kill('SIGTERM');
    expect(await node.exited).toBe(0);
    expect(await readdir(root)).toEqual([]);
  });

  it('get_output refuses files the server did not write', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root]);
    const client = await connect(node.url);
    const planted = join(root, 'planted.txt');
    await writeFile(planted, 'not written by the server');
    expect(await errorCode(client, 'get_output', { path: planted })).toBe('bad_argument');
    expect(await errorCode(client, 'get_output', { path: '/etc/passwd' })).toBe('bad_argument');
    // What the server saved itself it serves.
    const saved = join(root, 'saved.ecproj');
    await call(client, 'command_run', { id: 'project.save', params: { path: saved } });
    const got = await download(client, saved);
    expect(got.bytes.equals(await readFile(saved))).toBe(true);
    await client.close();
  });

  it('answers busy beyond --max-concurrent calls in flight, and runs calls again once they end', async () => {
    const node = await startNode(['--max-concurrent', '1']);
    const [a, b] = await Promise.all([connect(node.url), connect(node.url)]);
    const long = a.callTool({
      name: 'run_script',
      arguments: { code: 'const end = Date.now() + 4000; while (Date.now() < end) {} return 1;' },
    });
    let busy = false;
    let finished = false;
    void long.then(() => (finished = true));
    while (!busy && !finished) {
      const r = await b.callTool({ name: 'capabilities', arguments: {} });
      busy = r.isError === true && (r.structuredContent as { code: string }).code === 'busy';
    }
    expect(busy).toBe(true);
    expect((await long).isError).toBeFalsy();
    expect((await b.callTool({ name: 'capabilities', arguments: {} })).isError).toBeFalsy();
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses a request body over --max-body with 413, declared or streamed', async () => {
    const node = await startNode(['--max-body', '64K']);
    const r = await fetch(node.url, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(100_000) } }),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${TOKEN}`,
      },
    });
    expect(r.status).toBe(413);
    // Without a Content-Length (chunked), it is refused once the bytes read pass the limit, before the end.
    // A raw socket: node:http would not let a test leave a request body unfinished.
    const { port } = new URL(node.url);
    const streamed = await new Promise<number>((resolve) => {
      const socket = connectTcp(Number(port), '127.0.0.1');
      let answer = '';
      const status = () => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      socket.on('data', (d) => {
        answer += d.toString('latin1');
        if (!status()) return;
        resolve(status());
        socket.destroy();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(status()));
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Accept: application/json, text/event-stream\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          'Transfer-Encoding: chunked\r\n\r\n',
      );
      // 128 KiB in 16 KiB chunks, twice the limit, and the body is never ended: only an early answer settles
      // this. (Writing on after the answer would end in EPIPE once the server closes the connection.)
      const piece = Buffer.alloc(16 * 1024, 0x20).toString('latin1');
      for (let i = 0; i < 8; i++) socket.write(`${(16 * 1024).toString(16)}\r\n${piece}\r\n`);
    });
    expect(streamed).toBe(413);
  });

  it('a put_sample over --max-body through the official client: the 413 and its remedy reach the client (not EPIPE), which goes on working', async () => {
    const node = await startNode(['--max-body', '4M', '--automation-write-root', await tempDir()]);
    const client = await connect(node.url);
    // 15 MiB of base64 in a body of up to 4 MiB: the client is still sending when the answer comes.
    const content = 'A'.repeat(15 * 1024 * 1024);
    const err = await call(client, 'put_sample', {
      filename: 'big.bin',
      content_b64: content,
      sha256: sha256(Buffer.from(content, 'base64')),
    }).catch((e: Error) => e);
    expect((err as Error).message).toContain('Payload Too Large');
    expect((err as Error).message).toContain('put_sample_begin');
    expect(await call(client, 'capabilities', {})).toMatchObject({ server: 'effectcraft-cli' });
    await client.close();
  });

  it('offers the upload tools over HTTP only: not over stdio', async () => {
    const node = await startNode();
    const http = await connect(node.url);
    const overHttp = (await http.listTools()).tools.map((t) => t.name);
    expect(overHttp).toEqual(expect.arrayContaining([...UPLOAD_TOOLS, 'get_output']));
    await http.close();
    const stdio = new Client({ name: 'remote-e2e', version: '1.0.0' });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp'] }));
    const overStdio = (await stdio.listTools()).tools.map((t) => t.name);
    for (const name of [...UPLOAD_TOOLS, 'get_output']) expect(overStdio).not.toContain(name);
    const caps = await call<{ tools: { name: string }[]; remote?: unknown }>(stdio, 'capabilities', {});
    expect(caps.tools.map((t) => t.name)).not.toContain('put_sample');
    expect(caps.remote).toBeUndefined();
    await stdio.close();
  });
});
