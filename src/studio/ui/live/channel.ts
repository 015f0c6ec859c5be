/**
 * The page's live channel to the app: JSON-RPC 2.0 over one WebSocket at LIVE_PATH (same origin; the session
 * cookie authenticates it). It sends `hello` first, then requests; it receives events (notifications) and the
 * requests the UI tools send this page, which `onRequest` answers.
 *
 * A state machine (connecting, open, closed, ended): a dropped socket fails its pending requests at once and
 * reconnects with backoff, so a call made while the app restarts fails quickly instead of hanging. Before each
 * reconnect it asks the app whether this page is still signed in (a plain GET of LIVE_PATH: 401 when the app no
 * longer knows the session cookie, as after a restart); if not, the channel has `ended` and stops trying.
 */
import { LIVE_PATH, type ErrorBody } from '../../protocol.js';
import { RpcError, toErrorBody } from './rpc-error.js';
import type { ConnectionState } from '../state/studio-state.js';

type Json = Record<string, unknown>;
type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: number };

export interface ChannelHandlers {
  onEvent(method: string, params: unknown): void;
  /** Answers a request from the app (the UI tools); a thrown RpcError becomes the error's data. */
  onRequest(method: string, params: unknown): Promise<unknown>;
  /** Called on every state change; `open` comes after hello succeeded. */
  onState(state: ConnectionState): void;
}

const REQUEST_TIMEOUT_MS = 30_000;
const MAX_BACKOFF_MS = 10_000;
/** JSON-RPC's code for an expected failure carrying an ErrorBody in `data`. */
const APPLICATION_ERROR = -32000;

export class LiveChannel {
  #ws: WebSocket | null = null;
  #state: ConnectionState = 'closed';
  #nextId = 1;
  #backoff = 500;
  readonly #pending = new Map<number, Pending>();
  readonly #handlers: ChannelHandlers;

  constructor(handlers: ChannelHandlers) {
    this.#handlers = handlers;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Opens the socket and says hello; reconnects by itself after a drop (the page lives as long as it). */
  connect(): void {
    if (this.#ws) return;
    const url = new URL(LIVE_PATH, location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url);
    this.#ws = ws;
    this.#setState('connecting');
    ws.onopen = () => {
      this.#request('hello', { protocol: 1, client: 'studio' }, true).then(
        () => {
          this.#backoff = 500;
          this.#setState('open');
        },
        () => ws.close(),
      );
    };
    ws.onmessage = (ev) => this.#receive(ev.data);
    ws.onclose = () => this.#dropped(ws);
  }

  /** Sends a request once the channel is open; rejects with RpcError on an error reply or a drop. */
  request<T = unknown>(method: string, params: unknown = {}, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
    return this.#request(method, params, false, timeoutMs) as Promise<T>;
  }

  #request(method: string, params: unknown, beforeOpen: boolean, timeoutMs = REQUEST_TIMEOUT_MS) {
    const ws = this.#ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || (!beforeOpen && this.#state !== 'open')) {
      return Promise.reject(
        new RpcError({
          code: 'app_unavailable',
          message: `The studio is not connected to the app (${method} not sent).`,
          remediation:
            this.#state === 'ended'
              ? ENDED_REMEDY
              : 'Wait for the connection to come back (see the status in the top bar), then retry.',
        }),
      );
    }
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this.#pending.delete(id);
        reject(
          new RpcError({
            code: 'timeout',
            message: `The app did not answer ${method} within ${Math.round(timeoutMs / 1000)} s.`,
            remediation: 'The command may still be running; check the Activity panel before retrying.',
          }),
        );
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  #receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let msg: Json;
    try {
      msg = JSON.parse(data) as Json;
    } catch {
      return;
    }
    const method = typeof msg.method === 'string' ? msg.method : undefined;
    const id = msg.id;
    if (method !== undefined && (typeof id === 'number' || typeof id === 'string')) {
      void this.#answer(id, method, msg.params);
    } else if (method !== undefined) {
      this.#handlers.onEvent(method, msg.params);
    } else if (typeof id === 'number') {
      this.#settle(id, msg);
    }
  }

  #settle(id: number, msg: Json): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if ('error' in msg) pending.reject(new RpcError(errorBody(msg.error)));
    else pending.resolve(msg.result);
  }

  async #answer(id: number | string, method: string, params: unknown): Promise<void> {
    let reply: Json;
    try {
      reply = { result: (await this.#handlers.onRequest(method, params)) ?? null };
    } catch (error) {
      const data = toErrorBody(error);
      reply = { error: { code: APPLICATION_ERROR, message: data.message, data } };
    }
    if (this.#ws?.readyState === WebSocket.OPEN) {
      this.#ws.send(JSON.stringify({ jsonrpc: '2.0', id, ...reply }));
    }
  }

  #dropped(ws: WebSocket): void {
    if (this.#ws !== ws) return;
    this.#ws = null;
    for (const [id, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(
        new RpcError({
          code: 'app_unavailable',
          message: 'The connection to the app was lost during the call.',
          remediation: 'It may have been applied: check the document before retrying.',
        }),
      );
      this.#pending.delete(id);
    }
    this.#setState('closed');
    const wait = this.#backoff;
    this.#backoff = Math.min(MAX_BACKOFF_MS, this.#backoff * 2);
    window.setTimeout(() => {
      void signedIn().then((yes) => (yes ? this.connect() : this.#setState('ended')));
    }, wait);
  }

  #setState(state: ConnectionState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#handlers.onState(state);
  }
}

export const ENDED_REMEDY =
  'This studio session has ended (the app was restarted or quit). Open the link the app printed at start-up, or ask the agent for a fresh one (control {"action": "link"}).';

/** false only when the app answers that this page is not signed in; true while it cannot be asked (restarting). */
async function signedIn(): Promise<boolean> {
  try {
    const res = await fetch(new URL(LIVE_PATH, location.href), {
      cache: 'no-store',
      credentials: 'same-origin',
    });
    return res.status !== 401;
  } catch {
    return true;
  }
}

/** The ErrorBody of a JSON-RPC error (its `data`), or one made from its message. */
function errorBody(error: unknown): ErrorBody {
  const e = (error ?? {}) as { message?: unknown; data?: Partial<ErrorBody> };
  const data = e.data ?? {};
  return {
    code: typeof data.code === 'string' ? data.code : 'tool_failed',
    message:
      typeof data.message === 'string' ? data.message : String(e.message ?? 'The app refused the call.'),
    remediation: typeof data.remediation === 'string' ? data.remediation : '',
  };
}
