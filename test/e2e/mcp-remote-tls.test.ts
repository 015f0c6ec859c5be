/**
 * The render node beyond loopback: --host ADDRESS exposes it on another interface, --tls-cert/--tls-key serve
 * HTTPS. The certificate is made here with openssl (self-signed for 127.0.0.1) and trusted by a fetch of the
 * test's own, since the official client takes any fetch.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { call, connect, download, sha256, startNode } from './remote-helpers.js';

const exec = promisify(execFile);

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
// CI installs openssl and sets this, so a missing openssl fails there instead of skipping the HTTPS test.
if (!hasOpenssl && process.env.EFFECTCRAFT_REQUIRE_OPENSSL === '1')
  throw new Error(
    'EFFECTCRAFT_REQUIRE_OPENSSL=1 but openssl is not on PATH: install it (apt-get install openssl).',
  );

/** A fetch that trusts `ca` (node's global fetch takes no CA option). */
function trustingFetch(ca: Buffer): typeof fetch {
  return (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers, ca }, (res) => {
        const out = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const empty = res.statusCode === 204 || res.statusCode === 304;
        if (empty) res.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status: res.statusCode ?? 500,
            headers: out,
          }),
        );
      });
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
      req.on('error', reject);
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
  };
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function lanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const i of list ?? []) if (i.family === 'IPv4' && !i.internal) return i.address;
  return undefined;
}

describe('mcp --http beyond loopback', () => {
  it.skipIf(!hasOpenssl)(
    'serves HTTPS with --tls-cert/--tls-key to the official client, token required',
    async () => {
      const dir = await tempDir('ec-tls-');
      const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
      await exec('openssl', [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
        ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert],
      ]);
      const root = await tempDir('ec-node-');
      const node = await startNode(['--tls-cert', cert, '--tls-key', key, '--automation-write-root', root]);
      expect(node.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const fetchTls = trustingFetch(await readFile(cert));
      const client = await connect(node.url, { fetch: fetchTls });
      const bytes = Buffer.from('over TLS');
      const { path } = await call<{ path: string }>(client, 'put_sample', {
        filename: 'tls.txt',
        content_b64: bytes.toString('base64'),
        sha256: sha256(bytes),
      });
      expect(path.startsWith(root)).toBe(true);
      const saved = join(root, 'p.ecproj');
      await call(client, 'command_run', { id: 'project.save', params: { path: saved } });
      expect((await download(client, saved)).bytes.length).toBeGreaterThan(0);
      await client.close();
      // Plain HTTP to the TLS port gets nowhere, and TLS without the token is 401.
      await expect(
        fetch(node.url.replace('https:', 'http:'), { method: 'POST', body: '{}' }),
      ).rejects.toThrow();
      const noToken = await fetchTls(node.url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(noToken.status).toBe(401);
    },
  );

  const lan = lanAddress();
  it.skipIf(lan === undefined)(
    'listens on another interface with --host, Host checked, token required',
    async () => {
      const node = await startNode(['--host', '0.0.0.0']);
      const { port } = new URL(node.url);
      const url = `http://${lan!}:${port}/mcp`;
      const client = await connect(url);
      const caps = await call<{ tools: { name: string }[] }>(client, 'capabilities', {});
      expect(caps.tools.map((t) => t.name)).toContain('put_sample');
      await client.close();
      const noToken = await fetch(url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(noToken.status).toBe(401);
      // Where the token is kept is told to callers on this machine only (mcp-http.test.ts), not over the LAN.
      const { message } = ((await noToken.json()) as { error: { message: string } }).error;
      expect(message).toContain('whoever started it has it');
      expect(message).not.toMatch(/token file|environment variable|\//);
      expect(node.stderr()).toContain('TLS proxy');
    },
  );

  it('stays on 127.0.0.1 without --host', async () => {
    const node = await startNode();
    expect(new URL(node.url).hostname).toBe('127.0.0.1');
    if (lan === undefined) return;
    const { port } = new URL(node.url);
    await expect(fetch(`http://${lan}:${port}/mcp`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
