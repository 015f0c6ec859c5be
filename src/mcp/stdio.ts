/** Serves the MCP server factory over stdio through our hardened wire (see stdio-wire.ts). */
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { StdioWire, type StdioWireOptions } from './stdio-wire.js';

export interface StdioServing {
  /** Resolves when the client closed stdin and every outstanding reply was written. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export function serveMcpStdio(factory: McpServerFactory, options: StdioWireOptions = {}): StdioServing {
  const log = options.log ?? (() => undefined);
  const wire = new StdioWire(options);
  const handle = serveStdio(factory, {
    transport: wire,
    onerror: (err) => log(`mcp: ${err.message}`),
  });
  return { closed: wire.closed, close: () => handle.close() };
}
