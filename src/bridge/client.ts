/**
 * The client end of the control channel: connects to the app on demand, says hello, and reconnects with
 * backoff after a drop. A call made while the app is down fails at once with a clear `app_unavailable`
 * (naming the port and how to start the app); a call in flight during a drop fails and is never retried.
 */
import WebSocket from 'ws';
import { EngineError, isEngineError } from '../engine/index.js';
import type { TokenRead } from './auth.js';
import { Connection } from './connection.js';
import { z } from 'zod';
import {
  EVENTS,
  HelloResult,
  METHODS,
  type EventName,
  type MethodName,
  type ParamsOf,
  type ResultOf,
} from './methods.js';
import { DEFAULT_HOST, MAX_PAYLOAD, PROTOCOL_VERSION, Timeouts } from './protocol.js';

export interface BridgeClientOptions {
  port: number;
  host?: string;
  /** Read on every connect: a restarted app writes a new token. */
  readToken: () => Promise<TokenRead>;
  /** Shown in errors so a person knows which file was read. */
  tokenPath: string;
  /** True when tokenPath came from --bridge-token-file, false when it is the default location. */
  tokenPathGiven?: boolean;
  client?: { name: string; version: string };
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  maxPayload?: number;
  pingIntervalMs?: number;
  /** First and largest delay of the background reconnect after a drop. */
  backoffMs?: { first: number; max: number };
  /** Events from the host (document changed, progress). */
  onEvent?: (event: EventName, params: unknown) => void;
  log?: (message: string) => void;
}

export class BridgeClient {
  readonly #o: BridgeClientOptions & { host: string };
  #conn: Connection | null = null;
  #connecting: Promise<Connection> | null = null;
  #hello: HelloResult | null = null;
  #epoch = 0;
  #closed = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryDelay: number;

  constructor(options: BridgeClientOptions) {
    this.#o = { host: DEFAULT_HOST, ...options };
    this.#retryDelay = options.backoffMs?.first ?? 500;
  }

  /** What the host said in hello, once connected. */
  get hello(): HelloResult | null {
    return this.#hello;
  }

  /** Increments on every new connection: a host-side group belongs to one epoch. */
  get epoch(): number {
    return this.#epoch;
  }

  get connected(): boolean {
    return this.#conn?.state === 'open';
  }

  /**
   * Sends a request, connecting first when needed. Params are checked against the method table before they
   * are sent and the reply is parsed with it: a reply that does not match is an error, never cast.
   * With `epoch`, fails instead of reconnecting when the connection that request belongs with (an open group)
   * has been lost.
   */
  async call<M extends MethodName>(
    method: M,
    params: ParamsOf<M>,
    options: { timeoutMs?: number; epoch?: number } = {},
  ): Promise<ResultOf<M>> {
    if (options.epoch !== undefined && (options.epoch !== this.#epoch || !this.connected)) {
      throw new EngineError(
        'app_unavailable',
        `The connection to the app was lost during a group; ${method} was not sent.`,
        'The app rolled the group back: check the document state, then run the steps again.',
      );
    }
    const spec = METHODS[method];
    const sent = spec.params.safeParse(params);
    if (!sent.success) {
      throw new EngineError(
        'bad_argument',
        `Invalid params for ${method}: ${z.prettifyError(sent.error).replace(/\n/g, ' ')}`,
        'See docs/control-channel.md for the params of each method.',
      );
    }
    const conn = await this.#ensure();
    let reply: unknown;
    try {
      reply = await conn.request(
        method,
        sent.data,
        options.timeoutMs ?? this.#o.requestTimeoutMs ?? Timeouts.requestMs,
      );
    } catch (err) {
      if (!isEngineError(err) || err.code !== 'app_unavailable') throw err;
      // A drop mid-call: still name the app's address and how to bring it back.
      const { host, port } = this.#o;
      throw new EngineError(
        'app_unavailable',
        `${err.message} (app on ${host}:${port})`,
        `${err.remediation} If the app stopped, start it with \`effectcraft-cli app --port ${port}\`.`,
      );
    }
    return checkReply(method, spec.result, reply) as ResultOf<M>;
  }

  /** Connects when needed and returns the app's hello (its identity, capabilities and confinement). */
  async connect(): Promise<HelloResult> {
    await this.#ensure();
    if (!this.#hello) throw this.#unavailable('no hello received');
    return this.#hello;
  }

  /** Closes the connection and stops reconnecting. Safe to call twice. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    const conn = this.#conn ?? (await this.#connecting?.catch(() => null)) ?? null;
    if (!conn || conn.state === 'closed') return;
    const closed = new Promise<void>((resolve) => conn.once('close', () => resolve()));
    conn.close(1000, 'client closing');
    await closed;
  }

  #ensure(): Promise<Connection> {
    if (this.#closed)
      return Promise.reject(
        new EngineError('app_unavailable', 'The bridge client is closed.', 'Restart the MCP server.'),
      );
    if (this.#conn?.state === 'open') return Promise.resolve(this.#conn);
    this.#connecting ??= this.#connect().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  #unavailable(why: string): EngineError {
    const { host, port } = this.#o;
    return new EngineError(
      'app_unavailable',
      `Cannot reach the EffectCraft app on ${host}:${port}: ${why}.`,
      `Start it with \`effectcraft-cli app --port ${port}\` (or open the EffectCraft app with its control channel on port ${port}), then call again.`,
    );
  }

  /**
   * No usable token: either the app is not running, or it wrote its token somewhere else (--token-file).
   * The remedy names the file this client read and the flag that points it at the app's file.
   */
  #noToken(reason: 'missing' | 'empty' | 'unreadable'): EngineError {
    const { host, port, tokenPath } = this.#o;
    const given = this.#o.tokenPathGiven === true;
    const what =
      reason === 'missing'
        ? `no token file at ${tokenPath}${given ? ' (from --bridge-token-file)' : ' (the default location)'}`
        : `the token file ${tokenPath} is ${reason}`;
    const useFlag = given
      ? `If the app is running, pass the token file it printed at start-up ("token file: …") with --bridge-token-file.`
      : `If the app is running with --token-file PATH, pass the same path: \`effectcraft-cli mcp --bridge ${port} --bridge-token-file PATH\`.`;
    return new EngineError(
      'app_unavailable',
      `Cannot connect to the EffectCraft app on ${host}:${port}: ${what}.`,
      `${useFlag} If it is not running, start it with \`effectcraft-cli app --port ${port}${given ? ` --token-file ${tokenPath}` : ''}\`, then call again.`,
    );
  }

  async #connect(retried = false): Promise<Connection> {
    const { host, port } = this.#o;
    const token = await this.#o.readToken();
    if (!token.ok) throw this.#noToken(token.reason);
    const connectMs = this.#o.connectTimeoutMs ?? Timeouts.connectMs;
    const ws = new WebSocket(`ws://${host.includes(':') ? `[${host}]` : host}:${port}/`, {
      headers: { authorization: `Bearer ${token.token}` },
      maxPayload: this.#o.maxPayload ?? MAX_PAYLOAD,
      handshakeTimeout: connectMs,
      perMessageDeflate: false,
    });
    let refusedStatus: number | undefined;
    ws.on('unexpected-response', (_req, res) => {
      refusedStatus = res.statusCode;
      res.resume();
      // Aborts the handshake: ws then emits error and close, which settle the wait below.
      ws.terminate();
    });
    const conn = new Connection(ws, {
      maxPayload: this.#o.maxPayload ?? MAX_PAYLOAD,
      pingIntervalMs: this.#o.pingIntervalMs ?? Timeouts.pingIntervalMs,
    });
    let lastError = '';
    conn.on('error', (err: Error) => (lastError = (err as NodeJS.ErrnoException).code ?? err.message));
    conn.on('notification', (method: string, params: unknown) => {
      // Events are parsed like replies; an unknown or malformed one is dropped (events are best effort).
      const schema = Object.hasOwn(EVENTS, method) ? EVENTS[method as EventName] : undefined;
      const parsed = schema?.safeParse(params);
      if (parsed?.success) this.#o.onEvent?.(method as EventName, parsed.data);
    });

    const opened = await new Promise<boolean>((resolve) => {
      conn.once('open', () => resolve(true));
      conn.once('close', () => resolve(false));
    });
    if (!opened) {
      if (refusedStatus === 401 && !retried) {
        // A restarted app may have bound the port a moment before writing its new token: read it again once.
        const fresh = await this.#o.readToken();
        if (fresh.ok && fresh.token !== token.token) return this.#connect(true);
      }
      if (refusedStatus === 401 || refusedStatus === 403) {
        throw new EngineError(
          'not_configured',
          `The app on ${host}:${port} refused the connection (HTTP ${refusedStatus}: ${refusedStatus === 401 ? 'wrong or missing token' : 'origin not allowed'}).`,
          `Pass the token file the app printed at start-up with --bridge-token-file (read: ${this.#o.tokenPath}).`,
        );
      }
      throw this.#unavailable(
        lastError === 'ECONNREFUSED' ? 'nothing is listening' : lastError || 'the connection closed',
      );
    }
    let hello: HelloResult;
    try {
      const reply = await conn.request(
        'hello',
        {
          protocol: PROTOCOL_VERSION,
          client: this.#o.client?.name ?? 'effectcraft-cli',
          version: this.#o.client?.version ?? '0',
        },
        connectMs,
      );
      hello = checkReply('hello', HelloResult, reply) as HelloResult;
    } catch (err) {
      conn.close();
      throw err;
    }
    this.#hello = hello;
    this.#conn = conn;
    this.#epoch++;
    this.#retryDelay = this.#o.backoffMs?.first ?? 500;
    this.#o.log?.(`connected to ${hello.app} ${hello.version} on ${host}:${port}`);
    conn.once('close', () => {
      if (this.#conn === conn) this.#conn = null;
      this.#o.log?.(`connection to the app on ${host}:${port} closed`);
      this.#scheduleReconnect();
    });
    return conn;
  }

  /** Background reconnect with exponential backoff, so events resume when the app comes back. */
  #scheduleReconnect(): void {
    if (this.#closed) return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (this.#closed || this.connected) return;
      this.#ensure().catch(() => {
        this.#retryDelay = Math.min(this.#retryDelay * 2, this.#o.backoffMs?.max ?? 10_000);
        this.#scheduleReconnect();
      });
    }, this.#retryDelay);
    // The retry loop must never keep the process alive on its own.
    this.#retryTimer.unref();
  }
}

/** Parses a reply with its method's result schema; a mismatch means the two ends do not speak the same protocol. */
function checkReply(method: string, schema: z.ZodType, reply: unknown): unknown {
  const parsed = schema.safeParse(reply);
  if (parsed.success) return parsed.data;
  throw new EngineError(
    'app_unavailable',
    `The app's reply to ${method} does not match the control-channel protocol (${z.prettifyError(parsed.error).replace(/\n/g, ' ')}).`,
    'Use the same effectcraft-cli version for the app and the MCP bridge.',
  );
}
