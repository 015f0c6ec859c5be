/**
 * Resources: effectcraft://document (same JSON as doc_inspect, never cut into pages) and effectcraft://commands (the whole catalog
 * without schemas, in one piece: command_list's entries, unpaged). 2026-07-28 clients get cache hints: the
 * document is never cached, the catalog briefly.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { inspectDocument } from './tools/info-tools.js';
import type { ToolContext, ToolOutcome } from './tools/types.js';

export const DOCUMENT_URI = 'effectcraft://document';
export const COMMANDS_URI = 'effectcraft://commands';

/** The catalog changes only with the document's enabled states, so a minute is a safe reuse window. */
export const CATALOG_TTL_MS = 60_000;

async function readAsJson(
  read: (ctx: ToolContext) => Promise<ToolOutcome>,
  uri: URL,
  ctx: () => ToolContext,
) {
  const outcome = await read(ctx());
  if (outcome.kind !== 'json') {
    const message = outcome.kind === 'error' ? outcome.error.message : 'unexpected content';
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Cannot read ${uri.href}: ${message}`);
  }
  return {
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(outcome.value) }],
  };
}

async function wholeCatalog(ctx: ToolContext): Promise<ToolOutcome> {
  const commands = await ctx.backend.list({});
  return { kind: 'json', value: { count: commands.length, commands } };
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
    (uri) => readAsJson((c) => inspectDocument(c), uri, ctx),
  );
  server.registerResource(
    'commands',
    COMMANDS_URI,
    {
      title: 'Command Catalog',
      description:
        'Every engine command in one piece, without schemas (the entries of the command_list tool, unpaged).',
      mimeType: 'application/json',
      cacheHint: { ttlMs: CATALOG_TTL_MS, cacheScope: 'private' },
    },
    (uri) => readAsJson(wholeCatalog, uri, ctx),
  );
}
