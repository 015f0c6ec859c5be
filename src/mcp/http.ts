/**
 * Streamable HTTP on 127.0.0.1 (`mcp --http PORT`), for remote clients and the conformance suite.
 * Both eras from the same factory (the SDK's createMcpHandler: 2026-07-28 per request, 2025 stateless).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

export async function serveMcpHttp(
  factory: McpServerFactory,
  options: { port: number; log?: (message: string) => void },
): Promise<HttpServing> {
  const log = options.log ?? (() => undefined);
  const handler = createMcpHandler(factory, { onerror: (err) => log(`mcp http: ${err.message}`) });
  const node = toNodeHandler(handler, { onerror: (err) => log(`mcp http: ${err.message}`) });
  // Security: a web page in the user's browser must not reach this server (DNS rebinding, cross-origin POST).
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();
  const server: Server = createServer((req, res) => {
    if (!validHost(req, res) || !validOrigin(req, res)) return;
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
