import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readTokenFile } from '../../../src/bridge/auth.js';
import { BridgeClient } from '../../../src/bridge/client.js';
import { createSession } from '../../../src/session.js';
import { connect, slowCommand, startApp, tempDir } from './harness.js';

/** Opens a raw WebSocket and reports how the upgrade went. */
function rawUpgrade(
  port: number,
  headers: Record<string, string>,
): Promise<{ status?: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers });
    ws.once('unexpected-response', (req, res) => {
      resolve({ status: res.statusCode });
      req.destroy();
    });
    ws.once('open', () => resolve({ ws }));
    ws.on('error', () => {});
  });
}

describe('bridge failures', () => {
  it('fails at once with app_unavailable, naming the port, when no app runs', async () => {
    const dir = await tempDir();
    const app = await startApp(dir);
    const port = app.host.port;
    await app.stop();
    const { backend } = connect(app);
    const r = await backend.execute('project.inspect', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'app_unavailable' } });
    if (!r.ok) expect(r.error.remediation).toContain(`--port ${port}`);
  });

  it('fails with app_unavailable when the token file is missing', async () => {
    const dir = await tempDir();
    const app = await startApp(dir);
    const client = new BridgeClient({
      port: app.host.port,
      tokenPath: join(dir, 'absent.token'),
      readToken: () => readTokenFile(join(dir, 'absent.token')),
    });
    await expect(client.call('engine.list', {})).rejects.toMatchObject({ code: 'app_unavailable' });
    await client.close();
  });

  it('names the token file it read and --bridge-token-file when the token is not where it looked', async () => {
    const dir = await tempDir();
    // The app wrote its token elsewhere (as with `app --token-file X`); the client looked at its default.
    const app = await startApp(dir);
    const looked = join(dir, 'default', `bridge-${app.host.port}.token`);
    for (const tokenPathGiven of [false, true]) {
      const client = new BridgeClient({
        port: app.host.port,
        tokenPath: looked,
        tokenPathGiven,
        readToken: () => readTokenFile(looked),
      });
      const err = await client.call('engine.list', {}).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'app_unavailable' });
      const { message, remediation } = err as { message: string; remediation: string };
      expect(message).toContain(looked);
      expect(remediation).toContain('--bridge-token-file');
      expect(remediation).toContain(`effectcraft-cli app --port ${app.host.port}`);
      await client.close();
    }
    expect(app.host.clients).toBe(0);
  });

  it('is refused at the upgrade with a wrong token (401) before any command runs', async () => {
    const dir = await tempDir();
    const app = await startApp(dir);
    const wrong = join(dir, 'wrong.token');
    await writeFile(wrong, 'f'.repeat(64));
    const { backend } = connect({ host: app.host, tokenPath: wrong });
    const r = await backend.execute('comp.new', { width: 10, height: 10 });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_configured' } });
    expect(app.engine.document.items).toHaveLength(0);
    expect((await rawUpgrade(app.host.port, {})).status).toBe(401);
    expect(app.host.clients).toBe(0);
  });

  it('reads the token again once when refused, in case the app just replaced it', async () => {
    const app = await startApp(await tempDir());
    const reads = [
      { ok: true as const, token: 'stale' },
      { ok: true as const, token: app.token },
    ];
    let n = 0;
    const client = new BridgeClient({
      port: app.host.port,
      tokenPath: app.tokenPath,
      readToken: async () => reads[Math.min(n++, reads.length - 1)]!,
    });
    try {
      expect(await client.call('engine.list', { filter: 'comp.new' })).toHaveLength(1);
      expect(n).toBeGreaterThanOrEqual(2); // the stale read, then a fresh one
    } finally {
      await client.close();
    }
  });

  it('refuses a browser Origin (403) even with the right token', async () => {
    const app = await startApp(await tempDir());
    const r = await rawUpgrade(app.host.port, {
      authorization: `Bearer ${app.token}`,
      origin: 'http://evil.example',
    });
    expect(r.status).toBe(403);
    const ok = await rawUpgrade(app.host.port, { authorization: `Bearer ${app.token}` });
    expect(ok.ws).toBeDefined();
    ok.ws?.close();
  });

  it('closes a connection that sends an oversized message (1009) and keeps serving others', async () => {
    const app = await startApp(await tempDir(), { host: { maxPayload: 64 * 1024 } });
    const { backend } = connect(app);
    const { ws } = await rawUpgrade(app.host.port, { authorization: `Bearer ${app.token}` });
    const closed = once(ws!, 'close');
    ws!.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hello', params: { blob: 'x'.repeat(100 * 1024) } }),
    );
    const [code] = (await closed) as [number];
    expect(code).toBe(1009);
    expect(await backend.execute('comp.new', { width: 10, height: 10 })).toMatchObject({ ok: true });
  });

  it('refuses methods before hello and a protocol mismatch', async () => {
    const app = await startApp(await tempDir());
    const { ws } = await rawUpgrade(app.host.port, { authorization: `Bearer ${app.token}` });
    const replies: Array<{ id: number; error?: { data: { code: string } }; result?: unknown }> = [];
    ws!.on('message', (d) => replies.push(JSON.parse(d.toString())));
    ws!.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'engine.execute',
        params: { id: 'comp.new', params: { width: 1, height: 1 } },
      }),
    );
    ws!.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'hello', params: { protocol: 99 } }));
    ws!.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'hello', params: { protocol: 1 } }));
    while (replies.length < 3) await new Promise((r) => setTimeout(r, 5));
    const byId = new Map(replies.map((r) => [r.id, r]));
    expect(byId.get(1)?.error?.data.code).toBe('bad_argument');
    expect(byId.get(2)?.error?.data.code).toBe('bad_argument');
    expect(byId.get(3)?.result).toMatchObject({ protocol: 1 });
    expect(app.engine.document.items).toHaveLength(0);
    ws!.close();
  });

  it('times out a request the app does not answer in time', async () => {
    const slow = slowCommand();
    const app = await startApp(await tempDir(), { extraCommands: [slow.command] });
    const { backend } = connect(app, {
      requestTimeoutMs: 100,
      commands: [...createSession().engine.commands(), slow.command],
    });
    expect(await backend.execute('test.slow', {})).toMatchObject({ ok: false, error: { code: 'timeout' } });
    slow.release();
    expect(await backend.execute('project.inspect', {})).toMatchObject({ ok: true });
  });

  it('fails a request in flight when the app goes away, does not retry it, and recovers when the app is back', async () => {
    const dir = await tempDir();
    const slow = slowCommand();
    let runs = 0;
    slow.started.then(() => runs++);
    const app = await startApp(dir, { extraCommands: [slow.command] });
    const port = app.host.port;
    const { backend, client } = connect(app, {
      commands: [...createSession().engine.commands(), slow.command],
    });
    const inFlight = backend.execute('test.slow', {});
    await slow.started;
    await app.stop();
    const dropped = await inFlight;
    expect(dropped).toMatchObject({ ok: false, error: { code: 'app_unavailable' } });
    if (!dropped.ok) expect(dropped.error.remediation).toContain(`effectcraft-cli app --port ${port}`);
    expect(await backend.execute('project.inspect', {})).toMatchObject({
      ok: false,
      error: { code: 'app_unavailable' },
    });

    // The app comes back on the same port with a new token; the next call reads it and reconnects.
    const again = await startApp(dir, { port });
    const r = await backend.execute('comp.new', { name: 'After', width: 10, height: 10 });
    expect(r).toMatchObject({ ok: true });
    expect(again.engine.document.items.map((i) => i.name)).toEqual(['After']);
    expect(client.epoch).toBe(2);
    expect(runs).toBe(1);
  });

  it('reconnects in the background with backoff once the app is back', async () => {
    const dir = await tempDir();
    const app = await startApp(dir);
    const port = app.host.port;
    const { backend, client } = connect(app);
    await backend.execute('project.inspect', {});
    await app.stop();
    while (client.connected) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 150)); // a few failed attempts while it is down
    await startApp(dir, { port });
    while (!client.connected) await new Promise((r) => setTimeout(r, 20));
    expect(client.epoch).toBe(2);
  });
});
