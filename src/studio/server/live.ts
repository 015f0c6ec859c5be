/**
 * The page's live channel: the control channel's JSON-RPC over a WebSocket at LIVE_PATH, authenticated by the
 * studio's cookie and Origin instead of the bearer token. A page gets the control channel's own methods (every
 * edit through the same command catalog and edit order as the agent's, with the page as its actor), the
 * studio's few extras (focus, activity, info), every event, and the UI requests when it is the driven page.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { Connection } from '../../bridge/connection.js';
import { refuseUpgrade } from '../../bridge/host.js';
import { createHostHandler, type HostIdentity } from '../../bridge/host-methods.js';
import { UI_METHODS } from '../../bridge/ui-methods.js';
import { MAX_PAYLOAD, Timeouts } from '../../bridge/protocol.js';
import { EngineError, type Engine } from '../../engine/index.js';
import { missingFootage } from '../../engine/footage-presence.js';
import type { ActivityLog } from './activity.js';
import { ChangedFootageCheck } from './changed-footage.js';
import type { StudioAuth } from './auth.js';
import type { StudioHub } from './hub.js';
import { readCookie } from './auth.js';
import { SESSION_COOKIE } from '../protocol.js';

export interface LiveOptions {
  engine: Engine;
  identity: HostIdentity;
  auth: StudioAuth;
  hub: StudioHub;
  activity: ActivityLog;
  /** The session whose pages are the app's own headless browser. */
  ownedSession: () => string | null;
  maxPages: number;
  groupTimeoutMs?: number;
  log: (message: string) => void;
}

export class LiveChannel {
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD, clientTracking: true });
  readonly #connections = new Set<Connection>();
  readonly #options: LiveOptions;
  readonly #changed: ChangedFootageCheck;

  constructor(options: LiveOptions) {
    this.#options = options;
    this.#changed = new ChangedFootageCheck(options.engine);
  }

  /** Every open page's connection (events are sent to all of them). */
  get connections(): ReadonlySet<Connection> {
    return this.#connections;
  }

  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const { auth, log } = this.#options;
    const verdict = auth.checkLive({
      host: req.headers.host,
      origin: req.headers.origin,
      cookie: req.headers.cookie,
    });
    if (!verdict.ok) {
      log(`refused a studio live connection from ${req.socket.remoteAddress ?? '?'}: ${verdict.reason}`);
      return refuseUpgrade(socket, verdict.status, verdict.status === 401 ? 'Unauthorized' : 'Forbidden');
    }
    if (this.#connections.size >= this.#options.maxPages) {
      log(`refused a studio page: already ${this.#connections.size} open`);
      return refuseUpgrade(socket, 503, 'Too many studio pages');
    }
    const owned = readCookie(req.headers.cookie, SESSION_COOKIE) === this.#options.ownedSession();
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#serve(ws, owned));
  }

  #serve(ws: WebSocket, owned: boolean): void {
    const { engine, identity, hub, activity, log } = this.#options;
    // Named after its id once the hub has given it one (before any request can arrive).
    let name = 'studio page';
    const handler = createHostHandler(engine, identity, {
      notify: (event, params) => conn.notify(event, params),
      groupTimeoutMs: this.#options.groupTimeoutMs,
      actorOf: () => ({ kind: 'page', name }),
      // An agent driving this page with the UI tools: the page's commands meanwhile are its edits.
      drivenBy: () =>
        page.drivenBy ? { kind: page.drivenBy.kind, name: `${page.drivenBy.name} (through ${name})` } : null,
    });
    const conn: Connection = new Connection(ws, {
      maxPayload: MAX_PAYLOAD,
      pingIntervalMs: Timeouts.pingIntervalMs,
      logError: log,
      onRequest: async (method, params, signal) => {
        const p = (params ?? {}) as Record<string, unknown>;
        switch (method) {
          case 'studio.focus':
            hub.focus(page);
            return { target: true };
          case 'studio.activity': {
            const limit =
              typeof p.limit === 'number' && p.limit > 0 ? Math.min(500, Math.floor(p.limit)) : 200;
            return { entries: activity.recent(limit) };
          }
          case 'studio.info':
            return {
              app: identity.app,
              version: identity.version,
              pageId: page.id,
              actor: { kind: 'page', name },
              confined: identity.confinement?.confined ?? false,
            };
          case 'studio.missingFootage': {
            // Each item's own file: a sequence's frames are not looked at every few seconds.
            const doc = engine.view.doc;
            const [missing, changed] = await Promise.all([
              missingFootage(doc, (path) => engine.ports.exists(path), { frames: false }),
              this.#changed.find(doc.items.filter((i) => i.type === 'footage')),
            ]);
            return { ids: missing.map((m) => m.id), changed };
          }
          case 'session.view':
            return { ...engine.view, revision: engine.revision };
        }
        if (Object.hasOwn(UI_METHODS, method))
          throw new EngineError(
            'bad_argument',
            `${method} is for agents driving a page, not for a page.`,
            'Use engine.execute from the page.',
          );
        return handler.handle(method, params, signal);
      },
    });
    const page = hub.add(conn, owned);
    name = `studio page ${page.id.replace('page_', '')}${owned ? ' (headless)' : ''}`;
    this.#connections.add(conn);
    log(`${name} opened (${this.#connections.size} open)`);
    conn.on('error', (err: Error) => log(`${name}: ${err.message}`));
    conn.on('close', () => {
      this.#connections.delete(conn);
      void handler.dispose();
      log(`${name} closed (${this.#connections.size} open)`);
    });
  }

  async close(): Promise<void> {
    const closed = [...this.#connections].map(
      (c) => new Promise<void>((r) => (c.state === 'closed' ? r() : c.once('close', () => r()))),
    );
    for (const c of this.#connections) c.close(1001, 'app shutting down');
    await Promise.all(closed);
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }
}
