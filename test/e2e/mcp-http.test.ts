/** `effectcraft-cli mcp --http PORT`: both eras over streamable HTTP on 127.0.0.1, with Host/Origin checks. */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cliPath } from '../helpers/cli.js';
import { MODERN } from './mcp-helpers.js';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

async function startHttp(): Promise<string> {
  const child = spawn(process.execPath, [cliPath, 'mcp', '--http', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /listening on (http\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

describe('mcp --http', () => {
  it.each(['legacy', 'modern'] as const)('serves the official client (%s era)', async (era) => {
    const url = await startHttp();
    const client = new Client(
      { name: 'e2e-http', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('command_run');
    const r = await client.callTool({ name: 'command_list', arguments: { filter: 'comp.new' } });
    expect(r.structuredContent).toMatchObject({ count: 1 });
    await client.close();
  });

  it('refuses a foreign Origin and a foreign Host with 403', async () => {
    const url = await startHttp();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
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
});
