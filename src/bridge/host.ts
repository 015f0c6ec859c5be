/**
 * The app side of the control channel: a WebSocket server on loopback that authenticates each upgrade
 * (token + Origin) before any command can run, then serves one engine to every connected client and
 * forwards its events (document changed) to them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { z } from 'zod';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Engine } from '../engine/index.js';
import { checkUpgrade } from './auth.js';
import { Connection } from './connection.js';
import { createHostHandler, type HostIdentity, type UiDriver } from './host-methods.js';
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
  /** Plain HTTP and other upgrades on the same port (the studio); without it, HTTP answers 426. */
  http?: HttpSurface;
  /** Where the UI methods go (the studio's pages); without it they answer not_configured. */
  ui?: UiDriver;
}

/** Something served beside the control channel on its port. */
export interface HttpSurface {
  request(req: IncomingMessage, res: ServerResponse): void;
  /** Takes an upgrade request that is its own (by path) and returns true; false leaves it to the control channel. */
  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): boolean;
}

/** Refuses an upgrade before any WebSocket exists: a bare HTTP status, then the socket is closed. */
export function refuseUpgrade(socket: Socket, status: number, text: string): void {
  if (socket.writable)
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

export interface BridgeHost {
  readonly port: number;
  readonly host: string;
  /** Number of open connections. */
  readonly clients: number;
  /** The HTTP server the channel (and the studio, when given) is served on. */
  readonly server: Server;
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
    noServer: true,
    maxPayload: options.maxPayload ?? MAX_PAYLOAD,
    clientTracking: true,
  });
  const server = createServer((req, res) => {
    if (options.http) return options.http.request(req, res);
    res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
    res.end('This port speaks the EffectCraft control channel (WebSocket).\n');
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (options.http?.upgrade(req, socket, head)) return;
    // Security: refused at the HTTP upgrade, before a socket exists, so no command can run without the token.
    const verdict = checkUpgrade(
      { authorization: req.headers.authorization, origin: req.headers.origin },
      options.token,
      allowed,
    );
    if (verdict.ok && connections.size >= (options.maxClients ?? 16)) {
      log(`refused a connection: already serving ${connections.size} clients`);
      return refuseUpgrade(socket, 503, 'Too many connections');
    }
    if (!verdict.ok) {
      log(`refused a connection from ${req.socket.remoteAddress ?? '?'}: ${verdict.reason}`);
      return refuseUpgrade(socket, verdict.status, verdict.status === 401 ? 'Unauthorized' : 'Forbidden');
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  server.listen(options.port ?? DEFAULT_PORT, host);

  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.on('error', (err) => log(`server error: ${err.message}`));

  const unsubscribeDoc = options.engine.on((event) => {
    if (event.type === 'documentChanged')
      for (const c of connections)
        c.notify('event.documentChanged', { label: event.label, revision: event.revision });
    else if (event.type === 'projectSaved')
      for (const c of connections)
        c.notify('event.projectSaved', { path: event.path, revision: event.revision });
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
      ui: options.ui,
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

  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;

  return {
    port,
    host,
    server,
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
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}
