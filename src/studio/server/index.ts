/**
 * The studio: the app's face in the browser. One object serves the page's files, its frames and staged UI
 * scripts over HTTP, its live channel over WebSocket, and drives the open pages for the UI tools (StudioHub),
 * optionally with a headless Chromium of its own. It plugs into the control channel's port (an HttpSurface) or
 * listens on a port of its own (--studio-port).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces, hostname } from 'node:os';
import type { HttpSurface } from '../../bridge/host.js';
import type { HostIdentity } from '../../bridge/host-methods.js';
import type { Engine } from '../../engine/index.js';
import type { FrameRenderer } from '../../render/types.js';
import { FRAME_PATH, LIVE_PATH, SCRIPT_PATH, SOUND_PATH } from '../protocol.js';
import { ActivityLog } from './activity.js';
import { hostForUrl, StudioAuth, type Verdict } from './auth.js';
import { serveFrame } from './frames.js';
import {
  findBrowser,
  launchStudioBrowser,
  type BrowserFound,
  type OwnedBrowser,
} from './headless-browser.js';
import { StudioHub } from './hub.js';
import { LiveChannel } from './live.js';
import { SoundMixes } from './sound.js';
import { StaticFiles } from './static-files.js';
import { UiScripts } from './ui-scripts.js';
import type { RenderProgressListener } from './types.js';

export interface StudioOptions {
  engine: Engine;
  renderer: () => Promise<FrameRenderer>;
  /** ffmpeg, for the transport's sound (the session's: the same search path as renders). */
  findFfmpeg: () => Promise<string | null>;
  identity: HostIdentity;
  onRenderProgress?: (listener: RenderProgressListener) => () => void;
  log: (message: string) => void;
  /** Where a browser is looked for (PATH-style) and $EFFECTCRAFT_CHROMIUM. */
  searchPath: string;
  explicitBrowser?: string;
  maxPages?: number;
  groupTimeoutMs?: number;
  /** Where the built page is (tests). */
  pageDir?: string;
}

export interface Studio extends HttpSurface {
  readonly hub: StudioHub;
  readonly activity: ActivityLog;
  /** Records the address once the port is bound: Host checks, the CSP and printed links use it. */
  bind(host: string, port: number): void;
  /** The studio's address without a token, once bound. */
  readonly url: string | null;
  /** A link with a fresh one-time token. */
  link(): string;
  /** Finds a browser and opens the studio in it, headless; rejects with the reason when there is none. */
  startHeadless(viewport?: { width: number; height: number }): Promise<string>;
  /** The browser found (or why none), probed once. */
  browser(): Promise<BrowserFound>;
  close(): Promise<void>;
}

export function createStudio(options: StudioOptions): Studio {
  const { engine, log } = options;
  const auth = new StudioAuth();
  const files = new StaticFiles(options.pageDir);
  const scripts = new UiScripts();
  const sound = new SoundMixes(engine, options.findFfmpeg);
  const activity = new ActivityLog();
  const stopActivity = activity.follow(engine);
  let url: string | null = null;
  let owned: OwnedBrowser | null = null;
  let ownedSession: string | null = null;
  // The link the app's own browser opens: the session it becomes marks that browser's pages as the app's own.
  let ownedToken: string | null = null;
  let browserFound: Promise<BrowserFound> | undefined;
  let knownBrowser: BrowserFound | null = null;
  const browser = () => {
    browserFound ??= findBrowser(options.searchPath, options.explicitBrowser).then((b) => (knownBrowser = b));
    return browserFound;
  };
  // Probed at once so studio.status can report it synchronously.
  void browser();

  const link = () => {
    if (!url) throw new Error('the studio is not listening yet');
    return `${url}/?token=${auth.mintLink()}`;
  };

  const hub = new StudioHub({
    scripts,
    url: () => url,
    link,
    browser: () => knownBrowser,
    owned: () => owned,
    headless: false,
  });
  const live = new LiveChannel({
    engine,
    identity: options.identity,
    auth,
    hub,
    activity,
    ownedSession: () => ownedSession,
    maxPages: options.maxPages ?? 16,
    groupTimeoutMs: options.groupTimeoutMs,
    log,
  });

  const broadcast = (method: string, params: unknown) => {
    for (const c of live.connections) c.notify(method, params);
  };
  const stopDoc = engine.on((event) => {
    if (event.type === 'documentChanged')
      broadcast('event.documentChanged', { label: event.label, revision: event.revision });
    else if (event.type === 'projectSaved')
      broadcast('event.projectSaved', { path: event.path, revision: event.revision });
  });
  const stopActivityEvents = activity.on((entry) => broadcast('event.activity', { entry }));
  const stopRender = options.onRenderProgress?.((p) => broadcast('event.renderProgress', p)) ?? (() => {});

  function securityHeaders(): Record<string, string> {
    return {
      // Only the studio's own origin: its scripts, styles, fonts, frames and live channel. No inline script, no eval.
      'content-security-policy': [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        // 'self' covers the live channel's ws: in current browsers; the explicit ws: origins are for older ones.
        // Bracketed IPv6 hosts are left out: Chromium rejects them as CSP sources.
        `connect-src 'self' ${auth.origins
          .filter((o) => !o.includes('['))
          .map((o) => o.replace(/^http/, 'ws'))
          .join(' ')}`,
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    };
  }

  function refuse(res: ServerResponse, verdict: Exclude<Verdict, { ok: true }>, html: boolean): void {
    const remedy =
      verdict.status === 403
        ? 'Open the studio at the address the app printed.'
        : 'Open the link the app printed at start-up (each link works once), or ask the agent for a fresh one (control {"action": "link"}).';
    res.writeHead(verdict.status, {
      ...securityHeaders(),
      'content-type': html ? 'text/html; charset=utf-8' : 'application/json',
      'cache-control': 'no-store',
      ...(verdict.status === 401 && { 'www-authenticate': 'Cookie realm="effectcraft studio"' }),
    });
    const code = verdict.status === 401 ? 'unauthorized' : 'forbidden';
    res.end(
      html
        ? `<!doctype html><meta charset="utf-8"><title>EffectCraft studio</title><h1>${verdict.status === 401 ? 'Not signed in' : 'Forbidden'}</h1><p>${escapeHtml(verdict.reason)}.</p><p>${escapeHtml(remedy)}</p>\n`
        : JSON.stringify({ code, message: `${verdict.reason}.`, remediation: remedy }),
    );
  }

  async function request(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? '/', 'http://studio.invalid');
    const wantsHtml = !target.pathname.startsWith('/studio/');
    const host = auth.checkHost(req.headers.host);
    if (!host.ok) return refuse(res, host, wantsHtml);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...securityHeaders(), allow: 'GET, HEAD' });
      return void res.end();
    }
    const token = target.searchParams.get('token');
    if (target.pathname === '/' && token !== null) {
      const session = auth.redeem(token);
      if (!session)
        return refuse(
          res,
          { ok: false, status: 401, reason: 'This studio link was already used or has expired' },
          true,
        );
      // The token leaves the address bar at once: a clean URL, the session in a cookie scripts cannot read.
      res.writeHead(303, {
        ...securityHeaders(),
        location: '/',
        'set-cookie': auth.cookieFor(session),
        'cache-control': 'no-store',
      });
      if (token === ownedToken) ownedSession = session;
      return void res.end();
    }
    const signedIn = auth.checkSession(req.headers.cookie);
    if (!signedIn.ok) return refuse(res, signedIn, wantsHtml);

    if (target.pathname === FRAME_PATH) {
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      return serveFrame(res, target.searchParams, engine, options.renderer, abort.signal);
    }
    if (target.pathname === SOUND_PATH) return sound.serve(req, res, target.searchParams);
    if (target.pathname.startsWith(`${SCRIPT_PATH}/`)) {
      const body = scripts.take(target.pathname);
      if (body === null) return notFound(res);
      res.writeHead(200, {
        ...securityHeaders(),
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-store',
      });
      return void res.end(body);
    }
    const file = await files.get(target.pathname);
    if (!file) {
      if (target.pathname === '/' || target.pathname === '/index.html') return notBuilt(res);
      return notFound(res);
    }
    res.writeHead(200, {
      ...securityHeaders(),
      'content-type': file.type,
      'content-length': file.body.length,
      'cache-control': file.immutable ? 'private, max-age=31536000, immutable' : 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  function notFound(res: ServerResponse): void {
    res.writeHead(404, { ...securityHeaders(), 'content-type': 'text/plain' });
    res.end('Not found\n');
  }

  function notBuilt(res: ServerResponse): void {
    res.writeHead(503, { ...securityHeaders(), 'content-type': 'text/plain' });
    res.end('The studio page is not built. Run npm run build in the effectcraft-cli checkout.\n');
  }

  return {
    hub,
    activity,
    request(req, res) {
      request(req, res).catch((err) => {
        log(`studio request ${req.url ?? ''} failed: ${(err as Error).stack ?? String(err)}`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    },
    upgrade(req: IncomingMessage, socket: Socket, head: Buffer) {
      const path = new URL(req.url ?? '/', 'http://studio.invalid').pathname;
      if (path !== LIVE_PATH) return false;
      live.upgrade(req, socket, head);
      return true;
    },
    bind(host, port) {
      const names = Object.values(networkInterfaces())
        .flat()
        .map((i) => i?.address)
        .filter((a): a is string => typeof a === 'string');
      auth.bind(host, port, [...names, hostname()]);
      const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      url = `http://${hostForUrl(shown)}:${port}`;
    },
    get url() {
      return url;
    },
    link,
    browser,
    async startHeadless(viewport = { width: 1600, height: 1000 }) {
      const found = await browser();
      if (!found.found) throw new Error(`${found.reason} ${found.remediation}`);
      const ownLink = link();
      ownedToken = new URL(ownLink).searchParams.get('token');
      owned = await launchStudioBrowser({
        executablePath: found.path,
        url: ownLink,
        viewport,
        log,
        onClosed: () => {
          log('the headless studio browser closed');
          owned = null;
        },
      });
      return found.path;
    },
    async close() {
      stopActivity();
      stopDoc();
      sound.close();
      stopActivityEvents();
      stopRender();
      await live.close();
      await owned?.close();
      owned = null;
    },
  };
}

/** Listens on a port of its own (--studio-port): the page and its live channel, nothing of the control channel. */
export async function listenStudio(studio: Studio, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => studio.request(req, res));
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!studio.upgrade(req, socket, head)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      socket.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(port, host);
  });
  studio.bind(host, (server.address() as AddressInfo).port);
  return server;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
