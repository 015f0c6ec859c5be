/**
 * An in-process app with its studio on the control channel's port, a stub page folder, and helpers that speak
 * to it as a browser would (a cookie from the one-time link, the studio's Origin) and as an agent would (the
 * control channel with the bearer token). Real sockets, real HTTP; cleaned up after each test.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import WebSocket from 'ws';
import { newToken } from '../../../src/bridge/auth.js';
import { Connection, type RequestHandler } from '../../../src/bridge/connection.js';
import { startBridgeHost, type BridgeHost } from '../../../src/bridge/host.js';
import { findFfmpeg } from '../../../src/render/queue/exporters/ffmpeg.js';
import { createSession, type Session } from '../../../src/session.js';
import { createStudio, type Studio } from '../../../src/studio/server/index.js';
import { LIVE_PATH } from '../../../src/studio/protocol.js';
import { tempDir } from '../../helpers/tmp.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

export interface StudioApp {
  session: Session;
  host: BridgeHost;
  studio: Studio;
  token: string;
  base: string;
}

export async function startStudioApp(): Promise<StudioApp> {
  const pageDir = await tempDir('ec-studio-page-');
  await mkdir(join(pageDir, 'assets'));
  await writeFile(
    join(pageDir, 'index.html'),
    '<!doctype html><title>stub studio</title><script src="/assets/app.js"></script>',
  );
  await writeFile(join(pageDir, 'assets', 'app.js'), 'document.title = "stub";');
  const session = createSession();
  const identity = {
    app: 'test app',
    version: '0.0.0',
    capabilities: { ui: true, commands: true, render: true },
  };
  const studio = createStudio({
    engine: session.engine,
    renderer: session.renderer,
    findFfmpeg: () => findFfmpeg(),
    identity,
    onRenderProgress: (l) => session.renderQueue.onProgress(l),
    log: () => {},
    searchPath: '',
    pageDir,
  });
  const token = newToken();
  const host = await startBridgeHost({
    engine: session.engine,
    token,
    port: 0,
    identity,
    http: studio,
    ui: studio.hub,
  });
  studio.bind(host.host, host.port);
  cleanups.push(async () => {
    await studio.close();
    await host.close();
    (await session.renderer()).dispose();
  });
  return { session, host, studio, token, base: `http://127.0.0.1:${host.port}` };
}

/** Opens a link and returns the session cookie it set ("name=value"), or null. */
export async function signIn(app: StudioApp): Promise<string> {
  const res = await fetch(app.studio.link(), { redirect: 'manual' });
  const cookie = res.headers.get('set-cookie');
  if (res.status !== 303 || !cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie.split(';')[0]!;
}

/** A raw WebSocket upgrade to the live channel; resolves with the HTTP status of a refusal, or 101. */
export function tryLive(app: StudioApp, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${app.host.port}${LIVE_PATH}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => undefined);
  });
}

/** A page's live channel (cookie + studio Origin), past hello. `answer` plays the page's side of UI requests. */
export async function openPage(app: StudioApp, cookie: string, answer?: RequestHandler): Promise<Connection> {
  const ws = new WebSocket(`ws://127.0.0.1:${app.host.port}${LIVE_PATH}`, {
    headers: { cookie, origin: app.base },
  });
  const conn = new Connection(ws, { onRequest: answer });
  await new Promise<void>((resolve, reject) => {
    conn.once('open', () => resolve());
    conn.once('close', () => reject(new Error('live channel closed before it opened')));
  });
  cleanups.push(async () => {
    if (conn.state === 'closed') return;
    const closed = new Promise<void>((r) => conn.once('close', () => r()));
    conn.close();
    await closed;
  });
  await conn.request('hello', { protocol: 1, client: 'studio' });
  return conn;
}

/** An agent's control-channel connection (bearer token), past hello as the MCP bridge says it. */
export async function openAgent(app: StudioApp, client = 'effectcraft-cli mcp'): Promise<Connection> {
  const ws = new WebSocket(`ws://127.0.0.1:${app.host.port}/`, {
    headers: { authorization: `Bearer ${app.token}` },
  });
  const conn = new Connection(ws);
  await new Promise<void>((resolve, reject) => {
    conn.once('open', () => resolve());
    conn.once('close', () => reject(new Error('control channel closed before it opened')));
  });
  cleanups.push(async () => {
    if (conn.state === 'closed') return;
    const closed = new Promise<void>((r) => conn.once('close', () => r()));
    conn.close();
    await closed;
  });
  await conn.request('hello', { protocol: 1, client });
  return conn;
}

/** The next notification `method` on `conn` that `match` accepts. */
export function nextEvent<T = Record<string, unknown>>(
  conn: Connection,
  method: string,
  match: (p: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: string, p: T) => {
      if (m !== method || !match(p)) return;
      conn.off('notification', on);
      resolve(p);
    };
    conn.on('notification', on);
  });
}
