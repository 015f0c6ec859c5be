import { defineSubcommand } from '../flag-spec.js';
import { CONFINEMENT_FLAGS } from './shared.js';

export const mcpSpec = defineSubcommand({
  name: 'mcp',
  summary: 'run the MCP server for agents (stdio, or --http PORT)',
  usage: [
    'mcp [--http PORT [--token-file PATH | --token-env NAME]] [--bridge PORT [--bridge-token-file PATH]] [--automation-read-root DIR]... [--automation-write-root DIR]...',
  ],
  description:
    "Runs the MCP server for agents: stdio by default (add it to your MCP client's config), or streamable HTTP on 127.0.0.1 with --http. Serves both the 2025-11-25 (initialize) and 2026-07-28 (per-request _meta) eras.",
  positionals: false,
  flags: {
    http: {
      type: 'string',
      value: 'PORT',
      help: 'serve http://127.0.0.1:PORT/mcp instead of stdio (0 picks a free port); every request needs "Authorization: Bearer <token>"',
    },
    'token-file': {
      type: 'string',
      value: 'PATH',
      help: 'the token for --http; made, mode 0600, when absent',
      default: '$XDG_RUNTIME_DIR/effectcraft/mcp-http.token, else ~/.config/effectcraft/mcp-http.token',
    },
    'token-env': {
      type: 'string',
      value: 'NAME',
      help: 'take the token for --http from the environment variable NAME instead',
    },
    ...CONFINEMENT_FLAGS,
    bridge: {
      type: 'string',
      value: 'PORT',
      help: 'drive a running app (effectcraft-cli app --port PORT, default 9877) instead of a local engine; adds the UI tools (ui_click, ui_key, …)',
    },
    'bridge-token-file': {
      type: 'string',
      value: 'PATH',
      help: "the app's token file",
      default: 'the path the app prints at start-up',
    },
    // Test knob: the per-request timeout in ms (renders and previews get max(this, 10 min)).
    'bridge-timeout': { type: 'string', value: 'MS', help: 'bridge request timeout', hidden: true },
  },
  notes: 'Docs: docs/mcp.md, docs/bridge.md',
});
