/**
 * The control channel's constants and JSON-RPC 2.0 envelope over WebSocket between the app host
 * (`effectcraft-cli app`) and the bridge client (`effectcraft-cli mcp --bridge PORT`). The methods and their
 * schemas are in methods.ts. docs/control-channel.md is the prose version of both; keep them in step.
 */
import type { ErrorInfo } from '../engine/index.js';

/** Bumped on any incompatible change; the hello exchange refuses a mismatch. */
export const PROTOCOL_VERSION = 1;
/** The documented default port of the app's control channel. */
export const DEFAULT_PORT = 9877;
/** Loopback only unless the app is started with an explicit --host. */
export const DEFAULT_HOST = '127.0.0.1';
/** Largest frame either side accepts: previews travel as base64 PNGs, so this is generous but bounded. */
export const MAX_PAYLOAD = 16 * 1024 * 1024;

export const Timeouts = {
  /** Establishing the WebSocket (TCP + upgrade + hello). */
  connectMs: 3_000,
  /** Any request without a longer budget. */
  requestMs: 30_000,
  /** Renders and previews: pixels take time even when started with wait:false. */
  longRequestMs: 10 * 60_000,
  /** Server pings this often; a peer that has not answered the previous ping is terminated. */
  pingIntervalMs: 15_000,
  /** After close() starts, the socket is terminated if the peer has not completed the close handshake. */
  closeMs: 2_000,
  /** A host-side group (engine.beginGroup) that is not ended in time is rolled back. */
  groupMs: 5 * 60_000,
} as const;

/** JSON-RPC error numbers, mapped here and nowhere else. `data` always holds the engine's ErrorInfo. */
export const RpcCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** An expected failure from the engine or host: see data.code. */
  applicationError: -32000,
} as const;

export type RpcId = number | string;

export interface RpcRequest {
  jsonrpc: '2.0';
  id: RpcId;
  method: string;
  params?: unknown;
}

export interface RpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}

export interface RpcError {
  code: number;
  message: string;
  data: ErrorInfo;
}

export type RpcResponse =
  { jsonrpc: '2.0'; id: RpcId; result: unknown } | { jsonrpc: '2.0'; id: RpcId | null; error: RpcError };

export type RpcMessage = RpcRequest | RpcNotification | RpcResponse;
