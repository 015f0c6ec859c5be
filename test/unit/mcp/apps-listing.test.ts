/** MCP Apps in tools/list: the player's tools carry `_meta.ui`; the app-only one is left out for clients without apps. */
import { describe, expect, it } from 'vitest';
import type { ServerContext } from '@modelcontextprotocol/server';
import { listTools } from '../../../src/mcp/dispatch.js';
import { clientShowsApps } from '../../../src/mcp/player/apps.js';
import { toolTable } from '../../../src/mcp/tools/index.js';

const table = toolTable({ version: '1' });
const names = (showsApps?: boolean) => listTools(table, showsApps).map((t) => t.name);
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const ctx = (envelope?: Record<string, unknown>) => ({ mcpReq: { envelope } }) as unknown as ServerContext;

describe('the preview player in tools/list', () => {
  it('links preview_player to the view, for the model and the app', () => {
    const t = listTools(table, true).find((x) => x.name === 'preview_player');
    expect(t?._meta).toEqual({
      ui: { resourceUri: 'ui://effectcraft/player' },
      'ui/resourceUri': 'ui://effectcraft/player',
    });
  });

  it('lists player_frame with visibility ["app"] to hosts that show apps (or may), and not to others', () => {
    const t = listTools(table, true).find((x) => x.name === 'player_frame');
    expect(t?._meta).toMatchObject({ ui: { resourceUri: 'ui://effectcraft/player', visibility: ['app'] } });
    expect(names(undefined)).toContain('player_frame');
    expect(names(false)).not.toContain('player_frame');
    expect(names(false)).toContain('preview_player');
  });

  it('keeps player_frame out of what capabilities tells the model', async () => {
    const caps = table.find((t) => t.name === 'capabilities')!;
    const facts = { ffmpeg: { path: '/x' }, sharp: null, canvas: null, font: null };
    const outcome = await caps.run({}, {
      backend: { kind: 'headless' },
      capabilities: { facts: async () => facts },
      signal: new AbortController().signal,
      log: () => undefined,
    } as never);
    const listed = (outcome as { value: { tools: { name: string }[] } }).value.tools.map((t) => t.name);
    expect(listed).toContain('preview_player');
    expect(listed).not.toContain('player_frame');
  });
});

describe('clientShowsApps', () => {
  it('reads the 2026-07-28 envelope first, then the capabilities sent at initialize', () => {
    expect(clientShowsApps(ctx({ 'io.modelcontextprotocol/clientCapabilities': APPS }), undefined)).toBe(
      true,
    );
    expect(clientShowsApps(ctx({ 'io.modelcontextprotocol/clientCapabilities': {} }), APPS)).toBe(false);
    expect(clientShowsApps(ctx(), APPS)).toBe(true);
    expect(clientShowsApps(ctx(), {})).toBe(false);
  });

  it('does not know when nobody said (a stateless 2025 HTTP request after initialize)', () => {
    expect(clientShowsApps(ctx(), undefined)).toBeUndefined();
  });

  it('needs the MCP Apps HTML type among the mime types the client shows', () => {
    const other = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/plain'] } } };
    expect(clientShowsApps(ctx(), other)).toBe(false);
  });
});
