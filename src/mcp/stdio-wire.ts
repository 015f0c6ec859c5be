/**
 * Our stdio wire for the SDK's `serveStdio(factory, { transport })`. It fixes what the SDK's own stdio
 * transport (2.4.0) does not do:
 * - a line that is not JSON gets -32700 with a null id, JSON that is not JSON-RPC gets -32600, and the
 *   session keeps serving (the SDK skipped such lines silently);
 * - the protocol version claimed in a request's `_meta` is checked on every request, not only the first
 *   (-32022 naming the supported revisions, the legacy one served through `initialize` too);
 * - a tools/call whose arguments are not an object gets -32602 in a sentence (the SDK sent zod's issue list);
 * - when stdin closes, requests still running (a render) finish and their replies are written before
 *   `onclose` fires (the SDK dropped them);
 * - a request that reuses the id of one still in flight is answered -32600 and not run, so the first one's
 *   reply is never lost.
 * States: open -> draining (stdin ended, replies outstanding) -> closed. close() is safe to call twice.
 */
import type { Readable, Writable } from 'node:stream';
import {
  parseJSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';

/** Protocol revisions a per-request `_meta` claim may name (the SDK serves 2026-07-28 as its modern era). */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Every revision this server speaks: the modern ones per request, 2025-11-25 through `initialize`. */
export const SUPPORTED_PROTOCOL_VERSIONS = [...MODERN_PROTOCOL_VERSIONS, '2025-11-25'] as const;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export interface StdioWireOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Longest accepted line; a longer one is answered with -32600 and skipped. */
  maxLineBytes?: number;
  /** Backstop for the wait on outstanding replies after stdin closed (a request nobody answers). */
  drainTimeoutMs?: number;
  log?: (message: string) => void;
}

type Id = string | number;
type State = 'idle' | 'open' | 'draining' | 'closed';

export class StdioWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxLine: number;
  readonly #drainTimeoutMs: number;
  readonly #log: (message: string) => void;
  #state: State = 'idle';
  #chunks: Buffer[] = [];
  #buffered = 0;
  #skippingLongLine = false;
  // Requests handed to the server that have not been answered (or cancelled) yet.
  readonly #pending = new Set<Id>();
  #drainTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #closed: Promise<void>;
  #resolveClosed!: () => void;

  constructor(options: StdioWireOptions = {}) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#maxLine = options.maxLineBytes ?? 16 * 1024 * 1024;
    this.#drainTimeoutMs = options.drainTimeoutMs ?? 30 * 60_000;
    this.#log = options.log ?? (() => undefined);
    this.#closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  /** Resolves once the wire has closed (stdin ended and every reply written, or close()). */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Requests received and not yet answered. */
  get pendingRequests(): number {
    return this.#pending.size;
  }

  async start(): Promise<void> {
    if (this.#state !== 'idle') throw new Error('StdioWire already started');
    this.#state = 'open';
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    this.#stdin.on('error', this.#onStdinError);
    if (this.#stdin.readableEnded) setImmediate(this.#onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#state === 'closed') throw new Error('StdioWire is closed');
    await this.#write(message);
    if ('id' in message && ('result' in message || 'error' in message) && message.id !== null) {
      this.#pending.delete(message.id as Id);
      this.#maybeFinish();
    }
  }

  setProtocolVersion(): void {
    // Versions are checked per request from `_meta`; nothing to remember per connection.
  }

  async close(): Promise<void> {
    this.#finish();
  }

  #onData = (chunk: Buffer): void => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.#skippingLongLine) {
        this.#skippingLongLine = false;
        continue;
      }
      const line = this.#chunks.length ? Buffer.concat([...this.#chunks, piece]) : piece;
      this.#chunks = [];
      this.#buffered = 0;
      this.#onLine(line.toString('utf8'));
      if (this.#state === 'closed') return;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || this.#skippingLongLine) return;
    this.#buffered += rest.length;
    if (this.#buffered > this.#maxLine) {
      this.#chunks = [];
      this.#buffered = 0;
      this.#skippingLongLine = true;
      this.#reply(null, INVALID_REQUEST, `Message longer than ${this.#maxLine} bytes; skipped.`);
      return;
    }
    this.#chunks.push(Buffer.from(rest));
  };

  #onLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.#reply(null, PARSE_ERROR, `Parse error: ${(err as Error).message}`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.#reply(idOf(value), INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message.');
      return;
    }
    const claim = versionClaim(message);
    if (claim !== undefined && !(MODERN_PROTOCOL_VERSIONS as readonly unknown[]).includes(claim)) {
      if ('id' in message && 'method' in message) {
        this.#reply(
          message.id,
          UNSUPPORTED_PROTOCOL_VERSION,
          `Unsupported protocol version: ${String(claim)}`,
          {
            supported: [...SUPPORTED_PROTOCOL_VERSIONS],
            requested: claim,
          },
        );
      } else {
        this.#log(`dropped a notification claiming protocol version ${String(claim)}`);
      }
      return;
    }
    const badArguments = 'method' in message && 'id' in message ? toolArgumentsNotObject(message) : null;
    if (badArguments && 'id' in message) {
      // The SDK's own schema check answered with a dump of zod issues; ours says what is wrong in a sentence.
      this.#reply(
        message.id ?? null,
        INVALID_PARAMS,
        `${badArguments}: "arguments" must be an object (or left out).`,
        {
          tool: badArguments,
        },
      );
      return;
    }
    if ('method' in message && 'id' in message) {
      // Ids in flight are the client's to keep unique; a reused one would make the server lose the first
      // request's reply (a render's result, and with it the files it wrote). Answer the duplicate instead.
      if (this.#pending.has(message.id)) {
        this.#reply(
          message.id,
          INVALID_REQUEST,
          `Invalid Request: id ${JSON.stringify(message.id)} belongs to a request still in flight; this one was not run.`,
          { reason: 'duplicate_request_id', id: message.id },
        );
        return;
      }
      this.#pending.add(message.id);
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request gets no reply, so it no longer holds the wire open.
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') {
        this.#pending.delete(id);
        queueMicrotask(() => this.#maybeFinish());
      }
    }
    this.onmessage?.(message);
  }

  #onEnd = (): void => {
    if (this.#state !== 'open') return;
    this.#state = 'draining';
    this.#stdin.off('data', this.#onData);
    if (this.#pending.size > 0) {
      this.#log(`stdin closed; finishing ${this.#pending.size} request(s) before exit`);
      this.#drainTimer = setTimeout(() => {
        this.#log(`gave up waiting for ${this.#pending.size} request(s) after stdin closed`);
        this.#finish();
      }, this.#drainTimeoutMs);
      this.#drainTimer.unref();
    }
    this.#maybeFinish();
  };

  #onStdinError = (err: Error): void => {
    this.onerror?.(err);
    this.#onEnd();
  };

  #maybeFinish(): void {
    if (this.#state === 'draining' && this.#pending.size === 0) this.#finish();
  }

  #finish(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    if (this.#drainTimer) clearTimeout(this.#drainTimer);
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onEnd);
    this.#stdin.off('error', this.#onStdinError);
    this.#stdin.pause();
    this.#pending.clear();
    this.onclose?.();
    this.#resolveClosed();
  }

  #reply(id: Id | null, code: number, message: string, data?: unknown): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.#write({ jsonrpc: '2.0', id, error } as unknown as JSONRPCMessage).catch((err: unknown) =>
      this.#log(`could not write an error reply: ${String(err)}`),
    );
  }

  #write(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const ok = this.#stdout.write(JSON.stringify(message) + '\n', (err) => {
        if (err) reject(err);
        else if (ok) resolve();
      });
      if (!ok) this.#stdout.once('drain', () => resolve());
    });
  }
}

function idOf(value: unknown): Id | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function metaOf(message: JSONRPCMessage): Record<string, unknown> | undefined {
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

function versionClaim(message: JSONRPCMessage): unknown {
  return metaOf(message)?.[PROTOCOL_VERSION_META_KEY];
}

/** The tool's name when `message` is a tools/call whose `arguments` are there and not an object; else null. */
function toolArgumentsNotObject(message: JSONRPCMessage): string | null {
  if (!('method' in message) || message.method !== 'tools/call') return null;
  const params = (message as { params?: { name?: unknown; arguments?: unknown } }).params;
  const args = params?.arguments;
  if (args === undefined || args === null || (typeof args === 'object' && !Array.isArray(args))) return null;
  return typeof params?.name === 'string' ? params.name : 'tools/call';
}
