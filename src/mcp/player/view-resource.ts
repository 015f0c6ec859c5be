/**
 * The preview player's view, `ui://effectcraft/player`: one self-contained HTML file (scripts and styles inline,
 * nothing loaded from elsewhere) that `npm run build` bundles from src/player/view into dist/player/index.html.
 * It declares no CSP domains, so hosts show it under the MCP Apps default policy (no network at all): frames
 * reach it only as tool results, through the host.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { APP_MIME_TYPE } from './apps.js';

export const PLAYER_URI = 'ui://effectcraft/player';

/** The built page: dist/mcp/player/ -> dist/player/index.html. */
const PAGE = fileURLToPath(new URL('../../player/index.html', import.meta.url));

/** The page is fixed for the life of the process, so a host may keep it for an hour. */
const PAGE_TTL_MS = 3_600_000;

export function registerPlayerView(server: McpServer, log: (message: string) => void): void {
  server.registerResource(
    'player',
    PLAYER_URI,
    {
      title: 'Preview Player',
      description:
        'The view of the preview_player tool (MCP Apps): scrub, play and step through frames of a composition.',
      mimeType: APP_MIME_TYPE,
      cacheHint: { ttlMs: PAGE_TTL_MS, cacheScope: 'private' },
      _meta: { ui: { prefersBorder: true } },
    },
    async (uri) => {
      let html: string;
      try {
        html = await readFile(PAGE, 'utf8');
      } catch (err) {
        log(`player view: cannot read ${PAGE}: ${(err as Error).message}`);
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `The preview player page is missing (${PAGE}). Reinstall effectcraft-cli, or run "npm run build" in a source checkout.`,
        );
      }
      return { contents: [{ uri: uri.href, mimeType: APP_MIME_TYPE, text: html }] };
    },
  );
}
