/**
 * Helpers for the render-node tests (`mcp --http` as in docs/remote.md): the built CLI as a real child process,
 * the official client over streamable HTTP with the bearer token, and the put_sample / get_output convention
 * as a client such as Maljan follows it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { afterEach, expect } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cliPath } from '../helpers/cli.js';

export const TOKEN_ENV = 'E2E_REMOTE_TOKEN';
export const TOKEN = 'remote-e2e-token-0123456789abcdef';
export const CHUNK = 8 * 1024 * 1024;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

export interface Node {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `mcp --http 0 --token-env ...` with `args`; resolves with its URL once it listens. */
export function startNode(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Node> {
  const child = spawn(process.execPath, [cliPath, 'mcp', '--http', '0', '--token-env', TOKEN_ENV, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [TOKEN_ENV]: TOKEN, ...env },
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /listening on (https?\S+)/.exec(err);
      if (m) resolve({ url: m[1]!, child, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

/**
 * The official client connected with the token (a custom fetch for TLS tests), in the 2025-11-25 era (the
 * client's default) or pinned to 2026-07-28 (`modern`).
 */
export async function connect(
  url: string,
  options: { fetch?: typeof fetch; modern?: boolean } = {},
): Promise<Client> {
  const client = new Client(
    { name: 'remote-e2e', version: '1.0.0' },
    options.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined,
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      ...(options.fetch && { fetch: options.fetch }),
    }),
  );
  return client;
}

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const CALL_TIMEOUT_MS = 180_000;

/** A tool call's structured result, or its error's code (isError results). */
export async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  // A render of seconds alone may take over the client's default minute on a shared, loaded machine.
  const r = await client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS });
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent as T;
}

/** The error code of a call that must fail. */
export async function errorCode(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError).toBe(true);
  return (r.structuredContent as { code: string }).code;
}

/** Uploads `bytes` in CHUNK parts sent in `order` (seqs, repeats allowed), returns the server path. */
export async function uploadChunked(client: Client, filename: string, bytes: Buffer, order?: number[]) {
  const count = Math.ceil(bytes.length / CHUNK);
  const { upload_id } = await call<{ upload_id: string }>(client, 'put_sample_begin', {
    filename,
    sha256: sha256(bytes),
    size: bytes.length,
  });
  for (const seq of order ?? [...Array(count).keys()]) {
    const part = bytes.subarray(seq * CHUNK, (seq + 1) * CHUNK);
    await call(client, 'put_sample_chunk', { upload_id, seq, content_b64: part.toString('base64') });
  }
  return (await call<{ path: string }>(client, 'put_sample_finish', { upload_id })).path;
}

/** Fetches a file with get_output in parts of `length` bytes; returns the bytes and the sha256 it reported. */
export async function download(client: Client, path: string, length?: number) {
  const parts: Buffer[] = [];
  let reported = '';
  let calls = 0;
  for (let offset = 0; ;) {
    const r = await call<{ content_b64: string; length: number; eof: boolean; sha256: string }>(
      client,
      'get_output',
      { path, offset, ...(length && { length }) },
    );
    parts.push(Buffer.from(r.content_b64, 'base64'));
    reported = r.sha256;
    calls++;
    offset += r.length;
    if (r.eof) break;
  }
  return { bytes: Buffer.concat(parts), sha256: reported, calls };
}

/**
 * Fetches a file with get_output in parts of `length` bytes, `lanes` calls in flight at once (as a client written
 * for throughput does): the bytes in file order.
 */
export async function downloadInParallel(client: Client, path: string, length: number, lanes: number) {
  type Part = { content_b64: string; length: number; size: number };
  const first = await call<Part>(client, 'get_output', { path, offset: 0, length });
  const offsets: number[] = [];
  for (let o = first.length; o < first.size; o += length) offsets.push(o);
  const parts = new Map<number, Buffer>([[0, Buffer.from(first.content_b64, 'base64')]]);
  const lane = async () => {
    for (let o = offsets.shift(); o !== undefined; o = offsets.shift()) {
      const r = await call<Part>(client, 'get_output', { path, offset: o, length });
      parts.set(o, Buffer.from(r.content_b64, 'base64'));
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return Buffer.concat([...parts].sort((a, b) => a[0] - b[0]).map(([, bytes]) => bytes));
}

/** A tools/call sent as plain HTTP (2026-07-28 wire, the token included); the request is sent and ended. */
function rawToolCall(url: string, name: string, args: Record<string, unknown>) {
  const req = request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${TOKEN}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
  });
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw-e2e', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  req.end(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta } }),
  );
  return req;
}

/**
 * A tools/call whose response is not read until `holdMs` has passed: the server's writing of a large result
 * stalls on the full socket meanwhile. Resolves with the result's structuredContent.
 */
export function slowReaderCall(url: string, name: string, args: Record<string, unknown>, holdMs: number) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const req = rawToolCall(url, name, args);
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      res.pause();
      setTimeout(() => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          const json = res.headers['content-type']?.includes('event-stream')
            ? text
                .split('\n')
                .find((l) => l.startsWith('data:'))!
                .slice(5)
            : text;
          resolve(
            (JSON.parse(json) as { result: { structuredContent: Record<string, unknown> } }).result
              .structuredContent,
          );
        });
        res.resume();
      }, holdMs);
    });
  });
}

/** A tools/call whose client goes away once the first bytes of the answer have come. Resolves then. */
export function abandonedCall(url: string, name: string, args: Record<string, unknown>) {
  return new Promise<void>((resolve, reject) => {
    const req = rawToolCall(url, name, args);
    req.on('error', () => undefined);
    req.on('response', (res: IncomingMessage) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
      res.on('error', () => undefined);
    });
    setTimeout(() => reject(new Error('no answer came')), 20_000).unref();
  });
}
