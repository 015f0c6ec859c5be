/** The MCP server: factory, backends, stdio and HTTP serving. */
export type { Backend } from './backend.js';
export { createHeadlessBackend } from './headless-backend.js';
export { createMcpServer, createServerFactory, type McpServerOptions } from './server.js';
export { CapabilityProbe, probeHost } from './capabilities.js';
export { serveMcpStdio, type StdioServing } from './stdio.js';
export { StdioWire, type StdioWireOptions } from './stdio-wire.js';
export { serveMcpHttp, type HttpServing } from './http.js';
