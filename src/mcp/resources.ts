/**
 * Resources: effectcraft://document (same JSON as doc_inspect) and effectcraft://commands (same JSON as
 * command_list). 2026-07-28 clients get cache hints: the document is never cached, the catalog briefly.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { commandList } from './tools/command-tools.js';
import { docInspect } from './tools/info-tools.js';
import type { ToolContext, ToolSpec } from './tools/types.js';

export const DOCUMENT_URI = 'effectcraft://document';
export const COMMANDS_URI = 'effectcraft://commands';

/** The catalog changes only with the document's enabled states, so a minute is a safe reuse window. */
export const CATALOG_TTL_MS = 60_000;

async function readAsJson(tool: ToolSpec, uri: URL, ctx: () => ToolContext) {
  const outcome = await tool.run({}, ctx());
  if (outcome.kind !== 'json') {
    const message = outcome.kind === 'error' ? outcome.error.message : 'unexpected content';
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Cannot read ${uri.href}: ${message}`);
  }
  return {
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(outcome.value) }],
  };
}

export function registerResources(server: McpServer, ctx: () => ToolContext): void {
  server.registerResource(
    'document',
    DOCUMENT_URI,
    {
      title: 'Current Document',
      description: 'Project overview and the active composition (same JSON as the doc_inspect tool).',
      mimeType: 'application/json',
      cacheHint: { ttlMs: 0, cacheScope: 'private' },
    },
    (uri) => readAsJson(docInspect, uri, ctx),
  );
  server.registerResource(
    'commands',
    COMMANDS_URI,
    {
      title: 'Command Catalog',
      description: 'Every engine command (same JSON as the command_list tool).',
      mimeType: 'application/json',
      cacheHint: { ttlMs: CATALOG_TTL_MS, cacheScope: 'private' },
    },
    (uri) => readAsJson(commandList, uri, ctx),
  );
}
