/**
 * Who may open the studio, the Jupyter way: the URL printed at start-up carries a one-time token, which the
 * server exchanges for an HttpOnly, SameSite=Strict session cookie before redirecting to a clean URL. Every
 * other request needs that cookie. The Host header must name the address the app listens on (a DNS-rebinding
 * page on another name gets 403), and the live channel refuses any Origin but the studio's own.
 */
import { randomBytes } from 'node:crypto';
import { tokenMatches } from '../../bridge/auth.js';
import { SESSION_COOKIE } from '../protocol.js';

/** How long a printed link stays valid if nobody opens it. */
const LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** Sessions kept at once; the oldest goes first (each is one browser profile that opened a link). */
const MAX_SESSIONS = 64;
/** Links minted and not yet used, kept at once. */
const MAX_LINKS = 64;

export type Verdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export class StudioAuth {
  /** One-time link tokens -> when they expire. */
  readonly #links = new Map<string, number>();
  /** Session ids (cookie values), oldest first. */
  readonly #sessions = new Set<string>();
  #hosts: Set<string> = new Set();
  #origins: Set<string> = new Set();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * Sets the addresses the studio answers on once the port is bound: Host headers it accepts and the origins
   * of its own pages. A loopback listener also answers to "localhost", which browsers resolve to it.
   */
  bind(listenHost: string, port: number, interfaceNames: readonly string[] = []): void {
    const names = new Set([hostForUrl(listenHost)]);
    if (isLoopback(listenHost)) for (const n of ['127.0.0.1', 'localhost', '[::1]']) names.add(n);
    // Listening on every interface (0.0.0.0, ::): each of the machine's own addresses and names is the studio's.
    if (listenHost === '0.0.0.0' || listenHost === '::')
      for (const n of interfaceNames) names.add(hostForUrl(n));
    this.#hosts = new Set([...names].map((n) => `${n}:${port}`.toLowerCase()));
    this.#origins = new Set([...this.#hosts].map((h) => `http://${h}`));
  }

  /** A fresh one-time token for a studio link. */
  mintLink(): string {
    this.#expireLinks();
    while (this.#links.size >= MAX_LINKS) this.#links.delete(this.#links.keys().next().value as string);
    const token = randomBytes(24).toString('hex');
    this.#links.set(token, this.#now() + LINK_TTL_MS);
    return token;
  }

  /** Exchanges a link token for a new session id; null when it is unknown, used or expired (one use only). */
  redeem(token: string): string | null {
    this.#expireLinks();
    let found: string | undefined;
    // Constant-time per candidate, so a near miss takes as long as a far one.
    for (const candidate of this.#links.keys()) if (tokenMatches(candidate, token)) found = candidate;
    if (found === undefined) return null;
    this.#links.delete(found);
    const session = randomBytes(32).toString('hex');
    this.#sessions.add(session);
    if (this.#sessions.size > MAX_SESSIONS)
      this.#sessions.delete(this.#sessions.values().next().value as string);
    return session;
  }

  /** The Set-Cookie header for a session: never readable by scripts, never sent by other sites. */
  cookieFor(session: string): string {
    return `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** Checks the Host header (DNS rebinding): 403 unless it names the address the studio listens on. */
  checkHost(host: string | undefined): Verdict {
    if (host !== undefined && this.#hosts.has(host.toLowerCase())) return { ok: true };
    return { ok: false, status: 403, reason: `Host "${host ?? ''}" is not the studio's address` };
  }

  /** Checks the session cookie: 401 without a valid one. */
  checkSession(cookieHeader: string | undefined): Verdict {
    const given = readCookie(cookieHeader, SESSION_COOKIE);
    if (given !== null) for (const s of this.#sessions) if (tokenMatches(s, given)) return { ok: true };
    return { ok: false, status: 401, reason: 'no studio session (open the link the app printed)' };
  }

  /** The live channel: Host, the studio's own Origin (browsers always send one), and the cookie. */
  checkLive(headers: { host?: string; origin?: string; cookie?: string }): Verdict {
    const host = this.checkHost(headers.host);
    if (!host.ok) return host;
    if (headers.origin === undefined || !this.#origins.has(headers.origin.toLowerCase()))
      return {
        ok: false,
        status: 403,
        reason: `Origin "${headers.origin ?? '(none)'}" is not the studio's own`,
      };
    return this.checkSession(headers.cookie);
  }

  /** The origins of the studio's own pages (for the Content-Security-Policy's connect-src). */
  get origins(): string[] {
    return [...this.#origins];
  }

  #expireLinks(): void {
    const now = this.#now();
    for (const [token, expires] of this.#links) if (expires <= now) this.#links.delete(token);
  }
}

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || host.startsWith('127.');
}

/** An address as it appears in a URL's host part (IPv6 in brackets). */
export function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
