import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { Connection, RpcFailure, type ConnectionOptions } from '../../../src/bridge/connection.js';
import { RpcCodes } from '../../../src/bridge/protocol.js';
import { EngineError } from '../../../src/engine/index.js';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    for (const c of s.clients) c.terminate();
    await new Promise((r) => s.close(r));
  }
});

/** A connected pair: `client` (the side under test) and the server's end of the same socket. */
async function pair(serverOptions: ConnectionOptions = {}, clientOptions: ConnectionOptions = {}) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(wss);
  await once(wss, 'listening');
  const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
  const ws = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const client = new Connection(ws, clientOptions);
  expect(client.state).toBe('connecting');
  const [serverWs] = await accepted;
  const server = new Connection(serverWs, serverOptions);
  if (client.state !== 'open') await once(client, 'open');
  return { client, server, serverWs, ws };
}

describe('Connection', () => {
  it('matches replies to requests and moves through its states', async () => {
    const { client } = await pair({ onRequest: async (method, params) => ({ method, params }) });
    expect(client.state).toBe('open');
    const [a, b] = await Promise.all([client.request('one', { n: 1 }), client.request('two', { n: 2 })]);
    expect(a).toEqual({ method: 'one', params: { n: 1 } });
    expect(b).toEqual({ method: 'two', params: { n: 2 } });
    const closed = once(client, 'close');
    client.close();
    expect(client.state).toBe('closing');
    client.close(); // safe twice
    await closed;
    expect(client.state).toBe('closed');
  });

  it('passes errors with their code: expected failures keep their info, bugs do not leak', async () => {
    const { client } = await pair({
      onRequest: async (method) => {
        if (method === 'expected') throw new EngineError('not_found', 'No comp "x".', 'List comps.');
        if (method === 'params')
          throw new RpcFailure(RpcCodes.invalidParams, {
            code: 'bad_argument',
            message: 'm',
            remediation: 'r',
          });
        throw new Error('secret internals');
      },
    });
    await expect(client.request('expected', {})).rejects.toMatchObject({
      code: 'not_found',
      remediation: 'List comps.',
    });
    await expect(client.request('params', {})).rejects.toMatchObject({ code: 'bad_argument' });
    const bug = await client.request('bug', {}).catch((e: EngineError) => e);
    expect(bug).toMatchObject({ code: 'tool_failed' });
    expect((bug as Error).message).not.toContain('secret internals');
  });

  it('answers requests with method-not-found when it serves nothing', async () => {
    const { client } = await pair();
    await expect(client.request('x', {})).rejects.toMatchObject({ code: 'unknown_command' });
  });

  it('answers garbage frames with a parse error instead of dropping the link', async () => {
    const { ws, client } = await pair({ onRequest: async () => 'fine' });
    const reply = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
    ws.send('{not json');
    expect(JSON.parse(await reply).error.code).toBe(RpcCodes.parseError);
    expect(await client.request('still', {})).toBe('fine');
  });

  it('times out a request the peer never answers', async () => {
    const { client } = await pair({ onRequest: () => new Promise(() => {}) });
    await expect(client.request('slow', {}, 50)).rejects.toMatchObject({ code: 'timeout' });
    expect(client.state).toBe('open');
  });

  it('fails requests in flight when the link drops, and emits close once', async () => {
    const { client, serverWs } = await pair({ onRequest: () => new Promise(() => {}) });
    let closes = 0;
    client.on('close', () => closes++);
    const inFlight = client.request('engine.execute', {});
    serverWs.terminate();
    await expect(inFlight).rejects.toMatchObject({ code: 'app_unavailable' });
    await new Promise((r) => setImmediate(r));
    client.close();
    expect(closes).toBe(1);
    await expect(client.request('after', {})).rejects.toMatchObject({ code: 'app_unavailable' });
  });

  it('aborts the handlers it is serving when the link drops', async () => {
    let aborted: Promise<unknown> | undefined;
    const { client, server } = await pair({
      onRequest: (_m, _p, signal) => {
        aborted = once(signal, 'abort');
        return new Promise(() => {});
      },
    });
    void client.request('long', {}).catch(() => {});
    while (!aborted) await new Promise((r) => setTimeout(r, 5));
    const serverClosed = once(server, 'close');
    client.terminate();
    await aborted;
    await serverClosed;
  });

  it('terminates a peer that stops answering keepalive pings', async () => {
    const { server, ws } = await pair({ pingIntervalMs: 30 });
    // A frozen peer: its socket stops reading, so pongs never come back.
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const [code] = (await once(server, 'close')) as [number];
    expect(code).toBe(1006);
  });

  it('terminates after the close timer when the peer never completes the close handshake', async () => {
    const { client, serverWs } = await pair({}, { closeTimeoutMs: 50 });
    (serverWs as unknown as { _socket: { pause(): void } })._socket.pause();
    client.close();
    const [code] = (await once(client, 'close')) as [number];
    expect(code).toBe(1006);
    expect(client.state).toBe('closed');
  });

  it('refuses to send a request larger than the bound', async () => {
    const { client } = await pair({ onRequest: async () => 'ok' }, { maxPayload: 1000 });
    await expect(client.request('big', { blob: 'x'.repeat(2000) })).rejects.toMatchObject({
      code: 'bad_argument',
    });
    expect(await client.request('small', {})).toBe('ok');
  });

  it('delivers notifications', async () => {
    const { client, server } = await pair();
    const got = once(client, 'notification');
    server.notify('event.documentChanged', { label: 'New Composition' });
    expect(await got).toEqual(['event.documentChanged', { label: 'New Composition' }]);
  });
});

describe('Connection replies', () => {
  it('sends a small error instead of a reply too large for the peer, and keeps the link', async () => {
    const { client } = await pair({
      maxPayload: 2000,
      onRequest: async (method) => (method === 'big' ? 'x'.repeat(5000) : 'ok'),
    });
    await expect(client.request('big', {})).rejects.toMatchObject({ code: 'bad_argument' });
    expect(await client.request('small', {})).toBe('ok');
  });

  it('answers binary frames with an error', async () => {
    const { ws } = await pair({ onRequest: async () => 'ok' });
    const reply = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(JSON.parse(await reply).error.data.code).toBe('bad_argument');
  });
});

describe('Connection bounds', () => {
  it('refuses to send past its own in-flight bound with busy: nothing was sent, so nothing runs', async () => {
    const { client } = await pair({ onRequest: () => new Promise(() => {}) }, { maxPending: 1 });
    void client.request('slow', {}).catch(() => undefined);
    await expect(client.request('next', {})).rejects.toMatchObject({ code: 'busy' });
  });

  it('answers requests beyond its in-flight bound instead of queueing them', async () => {
    const { ws } = await pair({ maxPending: 2, onRequest: () => new Promise(() => {}) });
    const replies: Array<{ id: number; error?: { data: { code: string } } }> = [];
    ws.on('message', (d) => replies.push(JSON.parse(d.toString())));
    for (let id = 1; id <= 3; id++) ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'slow' }));
    while (replies.length < 1) await new Promise((r) => setTimeout(r, 5));
    expect(replies).toEqual([
      expect.objectContaining({
        id: 3,
        // Until 2026-12-07 this was `timeout`, which tells a client the command may still be running.
        error: expect.objectContaining({ data: expect.objectContaining({ code: 'busy' }) }),
      }),
    ]);
  });
});
