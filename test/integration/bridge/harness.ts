/** An in-process app host and bridge backend wired to real sockets and real token files, cleaned up after each test. */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { z } from 'zod';
import { newToken, readTokenFile, writeTokenFile } from '../../../src/bridge/auth.js';
import { BridgeBackend } from '../../../src/bridge/backend.js';
import { BridgeClient, type BridgeClientOptions } from '../../../src/bridge/client.js';
import { Connection } from '../../../src/bridge/connection.js';
import WebSocket from 'ws';
import { startBridgeHost, type BridgeHost, type BridgeHostOptions } from '../../../src/bridge/host.js';
import type { Confinement } from '../../../src/confinement/types.js';
import { defineCommand, READ_ONLY, type AnyCommand } from '../../../src/engine/index.js';
import { createSession } from '../../../src/session.js';
import { tempDir } from '../../helpers/tmp.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A command that waits until released or aborted: for drops and timeouts mid-request. */
export function slowCommand(): { command: AnyCommand; started: Promise<void>; release(): void } {
  let release!: () => void;
  let markStarted!: () => void;
  const started = new Promise<void>((r) => (markStarted = r));
  const released = new Promise<void>((r) => (release = r));
  const command = defineCommand({
    id: 'test.slow',
    title: 'Slow',
    category: 'Test',
    description: 'Waits until released.',
    params: z.strictObject({}),
    pathParams: {},
    annotations: READ_ONLY,
    mutates: false,
    async run(ctx) {
      markStarted();
      await Promise.race([released, new Promise((r) => ctx.signal.addEventListener('abort', r))]);
      return { done: true };
    },
  }) as AnyCommand;
  return { command, started, release };
}

export interface Started {
  host: BridgeHost;
  engine: ReturnType<typeof createSession>['engine'];
  tokenPath: string;
  token: string;
  stop(): Promise<void>;
}

/** Starts an app host on `port` (0: any) with its token file in `dir`. */
export async function startApp(
  dir: string,
  options: { port?: number; extraCommands?: AnyCommand[]; host?: Partial<BridgeHostOptions> } = {},
): Promise<Started> {
  const { engine } = createSession({ extraCommands: options.extraCommands });
  const token = newToken();
  const host = await startBridgeHost({
    engine,
    token,
    port: options.port ?? 0,
    identity: {
      app: 'test app',
      version: '0.0.0',
      capabilities: { ui: false, commands: true, render: false },
    },
    ...options.host,
  });
  const tokenPath = join(dir, 'bridge.token');
  await writeTokenFile(tokenPath, token);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await host.close();
  };
  cleanups.push(stop);
  return { host, engine, tokenPath, token, stop };
}

/** A bridge backend for the app, using the same command definitions as the host. */
export function connect(
  app: { host: BridgeHost; tokenPath: string },
  options: Partial<BridgeClientOptions> & { commands?: AnyCommand[]; confinement?: Confinement } = {},
): { backend: BridgeBackend; client: BridgeClient } {
  const client = new BridgeClient({
    port: app.host.port,
    tokenPath: app.tokenPath,
    readToken: () => readTokenFile(app.tokenPath),
    backoffMs: { first: 50, max: 200 },
    ...options,
  });
  const backend = new BridgeBackend({
    client,
    commands: options.commands ?? createSession().engine.commands(),
    confinement: options.confinement,
  });
  cleanups.push(() => backend.close());
  return { backend, client };
}

/**
 * A connection that speaks raw JSON-RPC (past hello) without the client's own checks: for what the host does
 * with requests a checked client would never send (unknown methods, invalid params).
 */
export async function rawConnection(app: { host: BridgeHost; token: string }): Promise<Connection> {
  const ws = new WebSocket(`ws://127.0.0.1:${app.host.port}/`, {
    headers: { authorization: `Bearer ${app.token}` },
  });
  const conn = new Connection(ws);
  await new Promise<void>((resolve, reject) => {
    conn.once('open', () => resolve());
    conn.once('close', () => reject(new Error('raw connection closed before it opened')));
  });
  cleanups.push(async () => {
    if (conn.state === 'closed') return;
    const closed = new Promise<void>((r) => conn.once('close', () => r()));
    conn.close();
    await closed;
  });
  await conn.request('hello', { protocol: 1 });
  return conn;
}

export { tempDir };
