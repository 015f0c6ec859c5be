/**
 * Streamable HTTP on 127.0.0.1 (`mcp --http PORT`), for remote clients and the conformance suite.
 * Both eras from the same factory (the SDK's createMcpHandler: 2026-07-28 per request, 2025 stateless).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { bearerToken, tokenMatches } from '../bridge/auth.js';
import { createMcpHandler, type McpServerFactory } from '@modelcontextprotocol/server';
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from '@modelcontextprotocol/node';

export interface HttpServing {
  /** The endpoint, e.g. http://127.0.0.1:3000/mcp */
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
}

export async function serveMcpHttp(
  factory: McpServerFactory,
  options: HttpServeOptions,
): Promise<HttpServing> {
  const log = options.log ?? (() => undefined);
  const handler = createMcpHandler(factory, { onerror: (err) => log(`mcp http: ${err.message}`) });
  const node = toNodeHandler(handler, { onerror: (err) => log(`mcp http: ${err.message}`) });
  // Security: a web page in the user's browser must not reach this server (DNS rebinding, cross-origin POST).
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();
  const server: Server = createServer((req, res) => {
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    // Security: Host and Origin stop browsers, not local processes; only the token lets a request run anything.
    if (!tokenMatches(options.token, bearerToken(req.headers.authorization))) {
      log(`refused a request without a valid token from ${req.socket.remoteAddress ?? '?'}`);
      unauthorized(res, options.tokenSource);
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`Not found. The MCP endpoint is ${MCP_PATH}.\n`);
      return;
    }
    node(req, res).catch((err: unknown) => {
      log(`mcp http: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** 401 with a body that names the remedy; JSON-RPC shaped so MCP clients can show it. */
function unauthorized(res: ServerResponse, source = 'the server token file'): void {
  const message = `Unauthorized: send "Authorization: Bearer <token>" with the token from ${source}.`;
  res
    .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="effectcraft"' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message } }) + '\n');
}
