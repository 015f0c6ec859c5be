/** `effectcraft-cli mcp --http PORT`: both eras over streamable HTTP on 127.0.0.1, with Host/Origin checks. */
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chmod, readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { cliPath } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { MODERN } from './mcp-helpers.js';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

interface Started {
  url: string;
  stderr: () => string;
}

/** Starts `mcp --http 0` with the given extra args and environment; resolves with its URL once it listens. */
async function startHttp(args: string[] = ['--token-env', TOKEN_ENV]): Promise<Started> {
  const child = spawn(process.execPath, [cliPath, 'mcp', '--http', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [TOKEN_ENV]: TOKEN },
  });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /listening on (http\S+)/.exec(err);
      if (m) resolve({ url: m[1]!, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

const TOKEN_ENV = 'E2E_MCP_TOKEN';
const TOKEN = 'e2e-token-0123456789abcdef';
const auth = (token = TOKEN) => ({ authorization: `Bearer ${token}` });
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('mcp --http', () => {
  it.each(['legacy', 'modern'] as const)('serves the official client (%s era)', async (era) => {
    const { url } = await startHttp();
    const client = new Client(
      { name: 'e2e-http', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth() } }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('command_run');
    const r = await client.callTool({ name: 'command_list', arguments: { filter: 'comp.new' } });
    expect(r.structuredContent).toMatchObject({ count: 1 });
    await client.close();
  });

  it.each(['legacy', 'modern'] as const)(
    'stops a render the client cancels (%s era: notifications/cancelled, or the response stream closed) and frees the render slot',
    async (era) => {
      const { url, stderr } = await startHttp();
      const dir = await tempDir();
      const client = new Client(
        { name: 'e2e-http-cancel', version: '1.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth() } }),
      );
      const run = async (id: string, params: Record<string, unknown> = {}) => {
        const r = await client.callTool({ name: 'command_run', arguments: { id, params } });
        return { failed: r.isError === true, out: r.structuredContent as Record<string, unknown> };
      };
      await run('comp.new', { name: 'Long', width: 640, height: 360, frameRate: 30, duration: 60 });
      await run('layer.addSolid', { color: '#3366cc' });
      await run('renderQueue.add', { comp: 'Long', output: join(dir, 'f_[####].png'), format: 'png' });
      const abort = new AbortController();
      let frames = 0;
      const rendering = client.callTool(
        { name: 'command_run', arguments: { id: 'renderQueue.render' } },
        { signal: abort.signal, timeout: 120_000, onprogress: () => void frames++ },
      );
      await expect.poll(() => frames, { timeout: 30_000 }).toBeGreaterThan(2);
      abort.abort();
      await expect(rendering).rejects.toThrow();
      // Stopped, not rendering on: the item says so, and the frames it wrote are gone.
      type Listed = { items: Array<{ status: string }> };
      await expect
        .poll(async () => ((await run('renderQueue.list')).out as unknown as Listed).items[0]!.status, {
          timeout: 15_000,
        })
        .toBe('stopped');
      expect(await readdir(dir)).toEqual([]);
      // The slot is free: the next render is not refused with render_in_progress.
      const one = await run('renderQueue.add', {
        comp: 'Long',
        output: join(dir, 'one_[####].png'),
        format: 'png',
        frameRange: { start: 0, end: 0 },
      });
      const next = await run('renderQueue.render', { items: [one.out.id] });
      expect(next).toMatchObject({ failed: false, out: { completed: 1 } });
      expect(await readdir(dir)).toContain('one_0000.png');
      expect(stderr()).toContain('cancelled by the client');
      await client.close();
    },
  );

  it('refuses a foreign Origin and a foreign Host with 403', async () => {
    const { url } = await startHttp();
    const body = PING;
    const headers = { ...JSON_HEADERS, ...auth() };
    const origin = await fetch(url, {
      method: 'POST',
      body,
      headers: { ...headers, origin: 'https://evil.example' },
    });
    expect(origin.status).toBe(403);
    const { port } = new URL(url);
    const host = await new Promise<number>((resolve, reject) => {
      // fetch cannot forge Host; node:http can.
      import('node:http').then(({ request }) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/mcp',
            method: 'POST',
            headers: { ...headers, host: `evil.example:${port}` },
          },
          (res) => resolve(res.statusCode ?? 0),
        );
        req.on('error', reject);
        req.end(body);
      }, reject);
    });
    expect(host).toBe(403);
  });

  it('refuses every request without the right bearer token with 401, loopback included', async () => {
    const { url } = await startHttp();
    const none = await fetch(url, { method: 'POST', body: PING, headers: JSON_HEADERS });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain(
      `environment variable ${TOKEN_ENV}`,
    );
    const wrong = await fetch(url, {
      method: 'POST',
      body: PING,
      headers: { ...JSON_HEADERS, ...auth('x'.repeat(26)) },
    });
    expect(wrong.status).toBe(401);
    // The official client without the header cannot even list tools.
    const client = new Client({ name: 'e2e-http', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow();
    const right = await fetch(url, { method: 'POST', body: PING, headers: { ...JSON_HEADERS, ...auth() } });
    expect(right.status).toBe(200);
  });

  it('makes a user-only token file when there is none, reuses it, and refuses one others can read', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sub', 'mcp.token');
    const first = await startHttp(['--token-file', file]);
    expect(first.stderr()).toContain(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const token = (await readFile(file, 'utf8')).trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(first.stderr()).not.toContain(token);
    const ok = await fetch(first.url, {
      method: 'POST',
      body: PING,
      headers: { ...JSON_HEADERS, ...auth(token) },
    });
    expect(ok.status).toBe(200);
    const again = await startHttp(['--token-file', file]);
    expect((await readFile(file, 'utf8')).trim()).toBe(token);
    const reused = await fetch(again.url, {
      method: 'POST',
      body: PING,
      headers: { ...JSON_HEADERS, ...auth(token) },
    });
    expect(reused.status).toBe(200);
    await chmod(file, 0o644);
    await expect(startHttp(['--token-file', file])).rejects.toThrow(/chmod 600/);
  });

  it('exits 2 with a clear message when the named token variable is unset, or --token-file comes without --http', () => {
    const unset = spawnSync(
      process.execPath,
      [cliPath, 'mcp', '--http', '0', '--token-env', 'NO_SUCH_TOKEN_VAR'],
      {
        encoding: 'utf8',
        env: { ...process.env, NO_SUCH_TOKEN_VAR: '' },
      },
    );
    expect(unset.status).toBe(2);
    expect(unset.stderr).toContain('NO_SUCH_TOKEN_VAR');
    expect(unset.stdout).toBe('');
    const stray = spawnSync(process.execPath, [cliPath, 'mcp', '--token-file', '/tmp/x.token'], {
      encoding: 'utf8',
    });
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain('--http');
  });
});
