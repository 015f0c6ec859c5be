/**
 * The pure part of the control channel: turns frames into checked JSON-RPC messages and back.
 * No sockets, no timers; both the host and the client use it, and unit tests push strings through it.
 */
import type { ErrorCode, ErrorInfo } from '../engine/errors.js';
import { ErrorInfoSchema } from '../engine/error-info-schema.js';
import {
  MAX_PAYLOAD,
  RpcCodes,
  type RpcError,
  type RpcId,
  type RpcMessage,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
} from './protocol.js';

export type Decoded =
  | { ok: true; kind: 'request'; message: RpcRequest }
  | { ok: true; kind: 'notification'; message: RpcNotification }
  | { ok: true; kind: 'response'; message: RpcResponse }
  | { ok: false; id: RpcId | null; error: RpcError };

/** Builds the wire error for an engine-style failure under a JSON-RPC number. */
export function rpcError(rpcCode: number, info: ErrorInfo): RpcError {
  return { code: rpcCode, message: info.message, data: info };
}

function invalid(id: RpcId | null, rpcCode: number, code: ErrorCode, message: string): Decoded {
  return {
    ok: false,
    id,
    error: rpcError(rpcCode, {
      code,
      message,
      remediation: 'Send one JSON-RPC 2.0 object per WebSocket text frame (see docs/control-channel.md).',
    }),
  };
}

function isId(value: unknown): value is RpcId {
  return (typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'string';
}

/**
 * The engine error inside a JSON-RPC error, parsed with the shared schema: a code outside the closed list (a
 * peer of another version, or a broken one) becomes tool_failed that says so, never an unknown code passed on.
 */
function errorData(data: unknown, message: string): ErrorInfo {
  const parsed = ErrorInfoSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const code = (data as { code?: unknown } | null)?.code;
  return {
    code: 'tool_failed',
    message:
      typeof code === 'string' ? `${message} (the peer sent the unknown error code "${code}")` : message,
    remediation:
      'Use the same effectcraft-cli version on both ends; details are in the app log (its stderr).',
  };
}

/**
 * Parses one frame. Binary frames, frames over `maxBytes`, invalid JSON and objects that are not
 * JSON-RPC 2.0 messages come back as values carrying the error to answer with (batches are not supported).
 */
export function decode(frame: string | Buffer, maxBytes: number = MAX_PAYLOAD): Decoded {
  const size = typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
  // Security: ws enforces maxPayload on the socket; this guards any other caller that hands us a frame.
  if (size > maxBytes)
    return invalid(
      null,
      RpcCodes.invalidRequest,
      'bad_argument',
      `Frame of ${size} bytes exceeds ${maxBytes}.`,
    );
  let value: unknown;
  try {
    value = JSON.parse(typeof frame === 'string' ? frame : frame.toString('utf8'));
  } catch {
    return invalid(null, RpcCodes.parseError, 'bad_argument', 'Frame is not valid JSON.');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return invalid(null, RpcCodes.invalidRequest, 'bad_argument', 'Frame is not a JSON-RPC object.');
  const m = value as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  if (m.jsonrpc !== '2.0')
    return invalid(id, RpcCodes.invalidRequest, 'bad_argument', 'Frame lacks "jsonrpc": "2.0".');
  if (typeof m.method === 'string') {
    if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null))
      return invalid(id, RpcCodes.invalidParams, 'bad_argument', '"params" must be an object or array.');
    if (m.id === undefined)
      return {
        ok: true,
        kind: 'notification',
        message: { jsonrpc: '2.0', method: m.method, params: m.params },
      };
    if (!isId(m.id))
      return invalid(null, RpcCodes.invalidRequest, 'bad_argument', '"id" must be a number or string.');
    return {
      ok: true,
      kind: 'request',
      message: { jsonrpc: '2.0', id: m.id, method: m.method, params: m.params },
    };
  }
  if ('result' in m && id !== null)
    return { ok: true, kind: 'response', message: { jsonrpc: '2.0', id, result: m.result } };
  if ('error' in m) {
    const e = m.error as Partial<RpcError> | null;
    if (e && typeof e.code === 'number' && typeof e.message === 'string') {
      const data = errorData(e.data, e.message);
      return {
        ok: true,
        kind: 'response',
        message: { jsonrpc: '2.0', id, error: { code: e.code, message: e.message, data } },
      };
    }
  }
  return invalid(id, RpcCodes.invalidRequest, 'bad_argument', 'Frame is neither a request nor a response.');
}

/** Serialises a message; a frame too large to send is reported instead of sent (the peer would drop the link). */
export function encode(
  message: RpcMessage,
  maxBytes: number = MAX_PAYLOAD,
): { ok: true; frame: string } | { ok: false; error: ErrorInfo } {
  const frame = JSON.stringify(message);
  const size = Buffer.byteLength(frame);
  if (size > maxBytes) {
    return {
      ok: false,
      error: {
        code: 'bad_argument',
        message: `The message is ${size} bytes; the control channel carries at most ${maxBytes}.`,
        remediation: 'Send smaller params (e.g. write large data to a file and pass its path).',
      },
    };
  }
  return { ok: true, frame };
}

export const request = (id: RpcId, method: string, params?: unknown): RpcRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

export const notification = (method: string, params?: unknown): RpcNotification => ({
  jsonrpc: '2.0',
  method,
  ...(params === undefined ? {} : { params }),
});

export const success = (id: RpcId, result: unknown): RpcResponse => ({
  jsonrpc: '2.0',
  id,
  result: result ?? null,
});

export const failure = (id: RpcId | null, error: RpcError): RpcResponse => ({ jsonrpc: '2.0', id, error });
