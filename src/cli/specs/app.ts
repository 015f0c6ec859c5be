import { DEFAULT_HOST, DEFAULT_PORT } from '../../bridge/protocol.js';
import { defineSubcommand } from '../flag-spec.js';
import { CONFINEMENT_FLAGS } from './shared.js';

export const appSpec = defineSubcommand({
  name: 'app',
  summary: 'serve a session over the control channel (for mcp --bridge)',
  usage: [`app [--port ${DEFAULT_PORT}] [--token-file PATH] [--project FILE] [options]`],
  description:
    "Serves an EffectCraft session over the control channel (JSON-RPC 2.0 over WebSocket) so that `effectcraft-cli mcp --bridge PORT` can drive it, and the studio (a page a person opens in a browser to watch and steer the agent; docs/studio.md) on the same port. Logs go to stderr, with the studio's one-time link. Stop with Ctrl-C (SIGINT), SIGTERM or SIGHUP.",
  positionals: false,
  flags: {
    port: {
      type: 'string',
      value: 'N',
      help: 'port on 127.0.0.1 (0 picks a free port)',
      default: String(DEFAULT_PORT),
    },
    'token-file': {
      type: 'string',
      value: 'PATH',
      help: 'where to write the access token; created with mode 0600, removed on exit',
      default: '$XDG_RUNTIME_DIR/effectcraft/bridge-PORT.token, else ~/.config/effectcraft/bridge-PORT.token',
    },
    project: { type: 'string', value: 'FILE', help: 'open this .ecproj at start-up' },
    host: {
      type: 'string',
      value: 'ADDRESS',
      help: 'listen on another interface; anyone who can reach it and read the token can drive the app',
      default: DEFAULT_HOST,
    },
    'allow-origin': {
      type: 'string',
      value: 'ORIGIN',
      multiple: true,
      help: "a browser Origin allowed to connect to the control channel; by default every Origin is refused (the studio's own page uses its own live channel)",
    },
    'studio-port': {
      type: 'string',
      value: 'N',
      help: "serve the studio on this port instead of the control channel's (0 picks a free port)",
    },
    open: { type: 'boolean', help: 'open the studio in the default browser' },
    'studio-headless': {
      type: 'boolean',
      help: 'open the studio in a headless Chromium the app starts and owns, so UI tools have a page to drive (needs chromium or google-chrome on PATH, or $EFFECTCRAFT_CHROMIUM)',
    },
    ...CONFINEMENT_FLAGS,
    // Test knobs: keepalive interval and how long an open group may last.
    'ping-interval': { type: 'string', value: 'MS', help: 'keepalive interval', hidden: true },
    'group-timeout': { type: 'string', value: 'MS', help: 'longest open group', hidden: true },
  },
  notes:
    'The confinement flags confine the app itself, as for `mcp`: checked again at each file open, whatever the connected client checks.',
});
