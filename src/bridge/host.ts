/**
 * The app side of the control channel: a WebSocket server on loopback that authenticates each upgrade
 * (token + Origin) before any command can run, then serves one engine to every connected client and
 * forwards its events (document changed) to them.
 */
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Engine } from '../engine/index.js';
import { checkUpgrade } from './auth.js';
import { Connection } from './connection.js';
import { createHostHandler, type HostIdentity } from './host-methods.js';
import type { EVENTS } from './methods.js';

type RenderProgressEvent = z.input<(typeof EVENTS)['event.renderProgress']>;
import { DEFAULT_HOST, DEFAULT_PORT, MAX_PAYLOAD, Timeouts } from './protocol.js';

export interface BridgeHostOptions {
  engine: Engine;
  token: string;
  identity: HostIdentity;
  /** 0 picks a free port (tests). */
  port?: number;
  host?: string;
  /** Browser origins allowed to connect; empty means any request with an Origin header is refused. */
  allowedOrigins?: readonly string[];
  maxPayload?: number;
  pingIntervalMs?: number;
  groupTimeoutMs?: number;
  /** Connections served at once; more are refused at the upgrade with 503 (bounded resources). */
  maxClients?: number;
  /** Subscribes to the render queue's progress (background renders), forwarded as event.renderProgress. */
  onRenderProgress?: (listener: (progress: RenderProgressEvent) => void) => () => void;
  /** One line per connection event; never a token. */
  log?: (message: string) => void;
}

export interface BridgeHost {
  readonly port: number;
  readonly host: string;
  /** Number of open connections. */
  readonly clients: number;
  /** Closes every connection (clean close, then terminate after the close timer) and the server. Safe twice. */
  close(): Promise<void>;
}

/** Starts listening; resolves once the port is bound (rejects on EADDRINUSE and the like). */
export async function startBridgeHost(options: BridgeHostOptions): Promise<BridgeHost> {
  const log = options.log ?? (() => {});
  const allowed = options.allowedOrigins ?? [];
  const host = options.host ?? DEFAULT_HOST;
  const connections = new Set<Connection>();

  const wss = new WebSocketServer({
    host,
    port: options.port ?? DEFAULT_PORT,
    maxPayload: options.maxPayload ?? MAX_PAYLOAD,
    clientTracking: true,
    // Security: refused at the HTTP upgrade, before a socket exists, so no command can run without the token.
    verifyClient: (info, done) => {
      const verdict = checkUpgrade(
        { authorization: info.req.headers.authorization, origin: info.req.headers.origin },
        options.token,
        allowed,
      );
      if (verdict.ok && connections.size >= (options.maxClients ?? 16)) {
        log(`refused a connection: already serving ${connections.size} clients`);
        return done(false, 503, 'Too many connections');
      }
      if (verdict.ok) return done(true);
      log(`refused a connection from ${info.req.socket.remoteAddress ?? '?'}: ${verdict.reason}`);
      done(false, verdict.status, verdict.status === 401 ? 'Unauthorized' : 'Forbidden');
    },
  });

  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('error', (err) => log(`server error: ${err.message}`));

  const unsubscribeDoc = options.engine.on((event) => {
    for (const c of connections) c.notify('event.documentChanged', { label: event.label });
  });
  const unsubscribeRender =
    options.onRenderProgress?.((progress) => {
      for (const c of connections) c.notify('event.renderProgress', progress);
    }) ?? (() => {});

  wss.on('connection', (ws: WebSocket) => {
    // The handler notifies through `conn`, which exists by the time any request arrives.
    const handler = createHostHandler(options.engine, options.identity, {
      notify: (event, params) => conn.notify(event, params),
      groupTimeoutMs: options.groupTimeoutMs,
    });
    const conn = new Connection(ws, {
      maxPayload: options.maxPayload ?? MAX_PAYLOAD,
      pingIntervalMs: options.pingIntervalMs ?? Timeouts.pingIntervalMs,
      onRequest: (method, params, signal) => handler.handle(method, params, signal),
      logError: log,
    });
    connections.add(conn);
    log(`client connected (${connections.size} open)`);
    conn.on('error', (err: Error) => log(`connection error: ${err.message}`));
    conn.on('close', (code: number) => {
      connections.delete(conn);
      void handler.dispose();
      log(`client disconnected (code ${code}; ${connections.size} open)`);
    });
  });

  const port = (wss.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;

  return {
    port,
    host,
    get clients() {
      return connections.size;
    },
    close() {
      closing ??= (async () => {
        unsubscribeDoc();
        unsubscribeRender();
        const closed = [...connections].map(
          (c) => new Promise<void>((r) => (c.state === 'closed' ? r() : c.once('close', () => r()))),
        );
        for (const c of connections) c.close(1001, 'app shutting down');
        await Promise.all(closed);
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      })();
      return closing;
    },
  };
}
