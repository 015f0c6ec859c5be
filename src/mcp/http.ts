/**
 * Streamable HTTP (`mcp --http PORT`), on 127.0.0.1 unless --host says otherwise, over TLS with a certificate:
 * the render node of docs/remote.md, and what the conformance suite speaks to.
 * Both eras from the same factory (the SDK's createMcpHandler: 2026-07-28 per request, 2025 stateless).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { bearerToken, tokenMatches } from '../bridge/auth.js';
import { createMcpHandler, type McpServerFactory } from '@modelcontextprotocol/server';
import { hostHeaderValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { readJsonBody, servePost } from './http-body.js';
import { InFlightRequests, cancelledIdOf } from './http-cancel.js';
import { LOOPBACK, allowedHostnames, displayHost } from './http-exposure.js';

export interface HttpServing {
  /** The endpoint, e.g. http://127.0.0.1:3000/mcp (https:// with TLS) */
  readonly url: string;
  close(): Promise<void>;
}

export const MCP_PATH = '/mcp';

export interface HttpServeOptions {
  port: number;
  /** The bearer token every request must carry (`Authorization: Bearer <token>`), loopback included. */
  token: string;
  /** Where the token is kept, named in the 401 remedy (never the token itself). */
  tokenSource?: string;
  log?: (message: string) => void;
  /** Address to listen on (default 127.0.0.1); 0.0.0.0 or :: for every interface. */
  host?: string;
  /** Further Host header names to answer (a DNS name of this machine, a proxy's). */
  allowHosts?: readonly string[];
  /** PEM certificate and key: serve HTTPS. */
  tls?: { cert: Buffer; key: Buffer };
  /** Largest request body in bytes; a larger one gets 413 before it is read whole. */
  maxBody?: number;
}

/** Default request body limit: a put_sample_chunk of 8 MiB is about 11.2 MB as base64 JSON. */
export const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

export async function serveMcpHttp(
  factory: McpServerFactory,
  options: HttpServeOptions,
): Promise<HttpServing> {
  const log = options.log ?? (() => undefined);
  const host = options.host ?? LOOPBACK;
  const maxRequestBodySize = options.maxBody ?? DEFAULT_MAX_BODY;
  const onerror = (err: Error) => log(`mcp http: ${err.message}`);
  const handler = createMcpHandler(factory, { onerror, maxRequestBodySize });
  const inFlight = new InFlightRequests();
  const cancelRequest = (id: string | number) => {
    if (inFlight.cancel(id) === 'ambiguous')
      log(
        `notifications/cancelled names request ${JSON.stringify(id)}, which more than one call in flight carries: none was cancelled (a client can also close the request's response stream)`,
      );
  };
  // GET/DELETE and empty POSTs. A POST with a body is read by us within the limit (see http-body.ts).
  const node = toNodeHandler(handler, { onerror, maxRequestBodySize });
  // Security: a web page in the user's browser must not reach this server (DNS rebinding, cross-origin POST).
  const validHost = hostHeaderValidation(allowedHostnames(host, options.allowHosts));
  const validOrigin = localhostOriginValidation();
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    // Security: Host and Origin stop browsers, not local processes; only the token lets a request run anything.
    if (!tokenMatches(options.token, bearerToken(req.headers.authorization))) {
      log(`refused a request without a valid token from ${req.socket.remoteAddress ?? '?'}`);
      // Where the token is kept helps a caller on this machine; told to any other, it maps the server's disk.
      unauthorized(res, fromThisMachine(req) ? options.tokenSource : undefined);
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`Not found. The MCP endpoint is ${MCP_PATH}.\n`);
      return;
    }
    handle(req, res).catch((err: unknown) => {
      log(`mcp http: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return node(req, res);
    const body = await readJsonBody(req, maxRequestBodySize);
    if (body.kind === 'too-large') {
      // A client such as fetch reads the answer only once it has sent its body: closed on, it got EPIPE ("fetch
      // failed", a put_sample of 13 MiB) and never the 413. So a declared body of up to DRAIN_FACTOR times the
      // limit is read and dropped (Node discards an unread body once the answer ends), which costs bytes on the
      // wire but no memory; a larger or undeclared one still closes the connection at once.
      const declared = Number(req.headers['content-length']);
      const drain = Number.isSafeInteger(declared) && declared <= maxRequestBodySize * DRAIN_FACTOR;
      jsonRpcError(
        res,
        413,
        -32000,
        `Payload Too Large: a request body may hold at most ${maxRequestBodySize} bytes. Send a file over 8 MiB with put_sample_begin, put_sample_chunk (parts of 8 MiB or less) and put_sample_finish, or ask whoever runs the node to raise --max-body.`,
        !drain,
      );
      return;
    }
    if (body.kind === 'invalid') {
      jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON');
      return;
    }
    if (body.kind === 'json') {
      const cancelled = cancelledIdOf(body.value);
      if (cancelled !== null) cancelRequest(cancelled);
      return servePost(handler, req, res, body, inFlight);
    }
    return node(req, res);
  };
  const server: Server = options.tls ? createTlsServer({ ...options.tls }, serve) : createServer(serve);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://${displayHost(host)}:${port}${MCP_PATH}`,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Declared bodies up to this many times --max-body are read and dropped after a 413, so the client sees it. */
const DRAIN_FACTOR = 4;

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  close = false,
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...(close && { connection: 'close' }) })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }) + '\n');
}

/** Whether the request comes over loopback (127.0.0.0/8, ::1, or IPv4 mapped into IPv6). */
function fromThisMachine(req: IncomingMessage): boolean {
  const address = req.socket.remoteAddress ?? '';
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

/**
 * 401 with a body that names the remedy; JSON-RPC shaped so MCP clients can show it. `source` (where the token
 * is kept) only for callers on this machine; others are told to ask whoever runs the node.
 */
function unauthorized(res: ServerResponse, source?: string): void {
  const message = source
    ? `Unauthorized: send "Authorization: Bearer <token>" with the token from ${source}.`
    : 'Unauthorized: send "Authorization: Bearer <token>" with this server\'s token (whoever started it has it).';
  res
    .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="effectcraft"' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message } }) + '\n');
}
