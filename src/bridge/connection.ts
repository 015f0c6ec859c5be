/**
 * One owner of a control-channel socket's lifecycle, used by both ends. Explicit states
 * (connecting, open, closing, closed), requests matched to replies by id with a timeout each, keepalive pings,
 * `close()` safe to call twice with a close timer, and 'close'/'error' emitted once.
 */
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { EngineError, isEngineError, type ErrorInfo } from '../engine/index.js';
import { decode, encode, failure, notification, request, rpcError, success } from './codec.js';
import {
  MAX_PAYLOAD,
  RpcCodes,
  Timeouts,
  type RpcId,
  type RpcRequest,
  type RpcResponse,
} from './protocol.js';

export type ConnectionState = 'connecting' | 'open' | 'closing' | 'closed';

/** A failure a request handler raises on purpose, with the JSON-RPC number to send. */
export class RpcFailure extends EngineError {
  readonly rpcCode: number;
  constructor(rpcCode: number, info: ErrorInfo) {
    super(info.code, info.message, info.remediation);
    this.rpcCode = rpcCode;
  }
}

export type RequestHandler = (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>;

export interface ConnectionOptions {
  /** Answers the peer's requests; without it every request gets method-not-found. */
  onRequest?: RequestHandler;
  pingIntervalMs?: number;
  closeTimeoutMs?: number;
  maxPayload?: number;
  /** Most requests this side may have waiting for a reply at once. */
  maxPending?: number;
  logError?: (message: string) => void;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(err: EngineError): void;
  timer: NodeJS.Timeout;
}

/** Events: 'open', 'notification' (method, params), 'close' (code, reason), 'error' (Error); each of close/error once. */
export class Connection extends EventEmitter {
  #state: ConnectionState;
  readonly #ws: WebSocket;
  readonly #options: Required<Omit<ConnectionOptions, 'onRequest' | 'logError'>> & ConnectionOptions;
  readonly #pending = new Map<RpcId, Pending>();
  readonly #served = new Set<AbortController>();
  #nextId = 1;
  #pingTimer: NodeJS.Timeout | undefined;
  #closeTimer: NodeJS.Timeout | undefined;
  #awaitingPong = false;
  #errorEmitted = false;
  #lostReason = 'the connection closed';

  constructor(ws: WebSocket, options: ConnectionOptions = {}) {
    super();
    this.#ws = ws;
    this.#options = {
      pingIntervalMs: Timeouts.pingIntervalMs,
      closeTimeoutMs: Timeouts.closeMs,
      maxPayload: MAX_PAYLOAD,
      maxPending: 256,
      ...options,
    };
    this.#state = ws.readyState === WebSocket.OPEN ? 'open' : 'connecting';
    ws.on('open', () => this.#onOpen());
    ws.on('message', (data, isBinary) => this.#onMessage(data as Buffer, isBinary));
    ws.on('pong', () => (this.#awaitingPong = false));
    ws.on('error', (err) => this.#emitError(err));
    ws.on('close', (code, reason) => this.#onClose(code, reason.toString()));
    if (this.#state === 'open') queueMicrotask(() => this.#onOpen());
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Sends a request and waits for its reply; rejects with an EngineError (timeout, app_unavailable, the host's error). */
  request(method: string, params: unknown, timeoutMs: number = Timeouts.requestMs): Promise<unknown> {
    if (this.#state !== 'open') return Promise.reject(lost(method, 'the connection is not open', false));
    if (this.#pending.size >= this.#options.maxPending)
      return Promise.reject(
        // busy, not timeout: this request was never sent, so nothing can be running (timeout says it may be).
        new EngineError(
          'busy',
          `${method} was not sent: ${this.#pending.size} requests to the app are already waiting for answers.`,
          'Nothing was run. Wait for earlier calls to finish, then send it again.',
        ),
      );
    const id = this.#nextId++;
    const encoded = encode(request(id, method, params), this.#options.maxPayload);
    if (!encoded.ok)
      return Promise.reject(
        new EngineError(encoded.error.code, encoded.error.message, encoded.error.remediation),
      );
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(
          new EngineError(
            'timeout',
            `The app did not answer ${method} within ${timeoutMs < 10_000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}.`,
            'The command may still be running in the app; check its state (e.g. project.inspect or renderQueue.list) before retrying.',
          ),
        );
      }, timeoutMs);
      this.#pending.set(id, { method, resolve, reject, timer });
      this.#ws.send(encoded.frame);
    });
  }

  /** Sends a notification; dropped silently when the socket is not open (events are best effort). */
  notify(method: string, params?: unknown): void {
    if (this.#state !== 'open') return;
    // Bounded buffers: a peer that stops reading loses events rather than growing our memory.
    if (this.#ws.bufferedAmount > this.#options.maxPayload) return;
    const encoded = encode(notification(method, params), this.#options.maxPayload);
    if (encoded.ok) this.#ws.send(encoded.frame);
  }

  /** Starts the close handshake; the socket is terminated if the peer does not finish it in time. Safe to call twice. */
  close(code = 1000, reason = ''): void {
    if (this.#state === 'closed' || this.#state === 'closing') return;
    this.#state = 'closing';
    this.#lostReason = 'the connection was closed';
    this.#closeTimer = setTimeout(() => this.#ws.terminate(), this.#options.closeTimeoutMs);
    this.#closeTimer.unref();
    if (this.#ws.readyState === WebSocket.CONNECTING) this.#ws.terminate();
    else this.#ws.close(code, reason);
  }

  /** Drops the socket at once (dead peer). */
  terminate(): void {
    this.#ws.terminate();
  }

  #onOpen(): void {
    if (this.#state !== 'connecting' && this.#state !== 'open') return;
    this.#state = 'open';
    this.#pingTimer = setInterval(() => {
      // A peer that did not answer the previous ping is gone (sleep, cable, crash): don't wait for TCP to notice.
      if (this.#awaitingPong) {
        this.#lostReason = 'the peer stopped answering keepalive pings';
        this.#ws.terminate();
        return;
      }
      this.#awaitingPong = true;
      this.#ws.ping();
    }, this.#options.pingIntervalMs);
    this.#pingTimer.unref();
    this.emit('open');
  }

  #onMessage(data: Buffer, isBinary: boolean): void {
    if (this.#state !== 'open') return;
    const decoded = isBinary ? binaryRefused() : decode(data, this.#options.maxPayload);
    if (!decoded.ok) {
      this.#reply(failure(decoded.id, decoded.error));
      return;
    }
    if (decoded.kind === 'response') return this.#settle(decoded.message);
    if (decoded.kind === 'notification') {
      this.emit('notification', decoded.message.method, decoded.message.params);
      return;
    }
    void this.#serve(decoded.message);
  }

  async #serve(req: RpcRequest): Promise<void> {
    const handler = this.#options.onRequest;
    if (!handler) {
      this.#reply(failure(req.id, rpcError(RpcCodes.methodNotFound, unknownMethod(req.method))));
      return;
    }
    if (this.#served.size >= this.#options.maxPending) {
      // Bounded work per peer: a flood of requests is answered, not queued without end.
      // busy, not timeout: the request is refused before it runs, so the client may send it again as it is.
      const busy: ErrorInfo = {
        code: 'busy',
        message: `${req.method} was not run: this connection already has ${this.#served.size} requests running (at most ${this.#options.maxPending}).`,
        remediation: 'Nothing was run. Wait for earlier calls to finish, then send it again.',
      };
      this.#reply(failure(req.id, rpcError(RpcCodes.applicationError, busy)));
      return;
    }
    const abort = new AbortController();
    this.#served.add(abort);
    try {
      this.#reply(success(req.id, await handler(req.method, req.params, abort.signal)));
    } catch (err) {
      if (err instanceof RpcFailure) this.#reply(failure(req.id, rpcError(err.rpcCode, err.toInfo())));
      else if (isEngineError(err))
        this.#reply(failure(req.id, rpcError(RpcCodes.applicationError, err.toInfo())));
      else {
        this.#options.logError?.(
          `${req.method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        );
        this.#reply(
          failure(
            req.id,
            rpcError(RpcCodes.internalError, {
              code: 'tool_failed',
              message: `${req.method} failed unexpectedly.`,
              remediation: 'See the app log (its stderr).',
            }),
          ),
        );
      }
    } finally {
      this.#served.delete(abort);
    }
  }

  #reply(response: RpcResponse): void {
    if (this.#state !== 'open') return;
    const encoded = encode(response, this.#options.maxPayload);
    if (encoded.ok) {
      this.#ws.send(encoded.frame);
      return;
    }
    if (response.id === null) return;
    // The peer would drop the whole link on a frame over its limit: send a small error instead.
    const tooLarge: ErrorInfo = {
      code: 'bad_argument',
      message: `${encoded.error.message} The reply was not sent.`,
      remediation: 'Ask for less at once (e.g. a smaller max_side for previews, or a filter for lists).',
    };
    this.#ws.send(JSON.stringify(failure(response.id, rpcError(RpcCodes.applicationError, tooLarge))));
  }

  #settle(res: RpcResponse): void {
    if (res.id === null) return;
    const pending = this.#pending.get(res.id);
    if (!pending) return; // A reply after its timeout: the caller has already been told.
    this.#pending.delete(res.id);
    clearTimeout(pending.timer);
    if ('error' in res)
      pending.reject(
        new EngineError(res.error.data.code, res.error.data.message, res.error.data.remediation),
      );
    else pending.resolve(res.result);
  }

  #emitError(err: Error): void {
    if (this.#errorEmitted) return;
    this.#errorEmitted = true;
    this.#lostReason = err.message;
    // Only emit when someone listens: an unhandled 'error' would crash the process, and close follows anyway.
    if (this.listenerCount('error') > 0) this.emit('error', err);
  }

  #onClose(code: number, reason: string): void {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    clearInterval(this.#pingTimer);
    clearTimeout(this.#closeTimer);
    for (const abort of this.#served) abort.abort();
    for (const [id, p] of this.#pending) {
      clearTimeout(p.timer);
      this.#pending.delete(id);
      p.reject(lost(p.method, code === 1009 ? 'a message was too large' : this.#lostReason, wasOpen));
    }
    this.emit('close', code, reason);
  }
}

function binaryRefused(): ReturnType<typeof decode> {
  return {
    ok: false,
    id: null,
    error: rpcError(RpcCodes.invalidRequest, {
      code: 'bad_argument',
      message: 'Binary frames are not part of the control channel.',
      remediation: 'Send JSON-RPC messages as text frames.',
    }),
  };
}

function unknownMethod(method: string): ErrorInfo {
  return {
    code: 'unknown_command',
    message: `Unknown control-channel method "${method}".`,
    remediation: 'See docs/control-channel.md for the methods a host answers.',
  };
}

/** The error for a request that lost its connection; `mayHaveRun` when it had been sent. */
function lost(method: string, why: string, mayHaveRun: boolean): EngineError {
  return new EngineError(
    'app_unavailable',
    `Lost the connection to the app during ${method}: ${why}.`,
    mayHaveRun
      ? 'It was not retried because it may already have changed the document: check the state (project.inspect, renderQueue.list) once the app is back, then retry if needed.'
      : 'Start the app (effectcraft-cli app) and call again.',
  );
}
