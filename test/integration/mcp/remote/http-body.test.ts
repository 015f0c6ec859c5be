/**
 * Request bodies read over a real HTTP connection: upload-sized bodies are read into reused buffers, so what a
 * parsed body holds must not change when a later body reuses the memory, and bodies arriving at once must not
 * share it.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsonBody, type BodyRead } from '../../../../src/mcp/http-body.js';
import { takeBytes, withLargeValues } from '../../../../src/mcp/http-splice.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A server that reads each POST with readJsonBody and hands the reads to the test. */
async function bodyServer(onRead: (body: BodyRead) => void): Promise<number> {
  const server = createServer((req, res) => {
    void readJsonBody(req, 16 * 1024 * 1024).then((body) => {
      onRead(body);
      res.end('ok');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** POSTs `body` in pieces with pauses between them, so several bodies are in flight at once. */
function post(port: number, body: Buffer, pieces = 4): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ port, method: 'POST', headers: { 'content-length': body.length } }, (res) => {
      res.resume().on('end', resolve);
    });
    req.on('error', reject);
    const size = Math.ceil(body.length / pieces);
    let at = 0;
    const next = () => {
      if (at >= body.length) return req.end();
      req.write(body.subarray(at, (at += size)));
      setTimeout(next, 5);
    };
    next();
  });
}

/** An upload chunk's body (the shape json-body.ts cuts the bytes out of) carrying `bytes`, with a name. */
function uploadBody(name: string, bytes: Buffer): Buffer {
  return Buffer.from(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'put_sample_chunk',
        arguments: { upload_id: name, seq: 0, content_b64: bytes.toString('base64') },
      },
    }),
  );
}

describe('readJsonBody', () => {
  it('keeps each parsed body intact while later and concurrent bodies reuse the memory', async () => {
    const reads: BodyRead[] = [];
    const port = await bodyServer((body) => reads.push(body));
    const payload = (fill: number) => Buffer.alloc(2 * 1024 * 1024 + fill, fill);
    // One after another (the second reuses the first's buffer), then three at once (each needs its own).
    await post(port, uploadBody('first', payload(1)));
    await post(port, uploadBody('second', payload(2)));
    await Promise.all([3, 4, 5].map((n) => post(port, uploadBody(`n${n}`, payload(n)))));
    // A plain JSON body of pooled size (no bytes cut out): its strings must be copies too.
    const text = 'é'.repeat(800_000);
    await post(port, Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'x', params: { text } })));

    expect(reads).toHaveLength(6);
    const seen = new Map<string, Buffer>();
    for (const read of reads.slice(0, 5)) {
      expect(read.kind).toBe('json');
      if (read.kind !== 'json') continue;
      const args = (read.value as { params: { arguments: { upload_id: string; content_b64: string } } })
        .params.arguments;
      const bytes = await withLargeValues({ out: new Map(), in: read.bytes }, async () =>
        takeBytes(args.content_b64),
      );
      seen.set(args.upload_id, bytes!);
    }
    for (const [name, fill] of [
      ['first', 1],
      ['second', 2],
      ['n3', 3],
      ['n4', 4],
      ['n5', 5],
    ] as const)
      expect(seen.get(name)!.equals(payload(fill)), name).toBe(true);
    const last = reads[5]!;
    expect(last.kind === 'json' && (last.value as { params: { text: string } }).params.text === text).toBe(
      true,
    );
  });
});
