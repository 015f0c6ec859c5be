import { defineSubcommand, type FlagSpecs } from '../flag-spec.js';
import { CHUNK_FLAGS, CONFINEMENT_FLAGS } from './shared.js';

/** `mcp --http` as a render node for clients elsewhere (docs/remote.md): exposure, TLS and the limits. */
const REMOTE_NODE_FLAGS = {
  host: {
    type: 'string',
    value: 'ADDRESS',
    help: 'listen on ADDRESS (0.0.0.0 or :: for every interface) instead of 127.0.0.1; off this machine use --tls-cert/--tls-key or a TLS proxy',
    default: '127.0.0.1',
  },
  'allow-host': {
    type: 'string',
    value: 'NAME',
    multiple: true,
    help: 'also answer requests whose Host header names NAME (a DNS name of this machine, a proxy)',
  },
  'tls-cert': { type: 'string', value: 'PEM', help: 'serve HTTPS with this certificate (with --tls-key)' },
  'tls-key': { type: 'string', value: 'PEM', help: 'the private key of --tls-cert' },
  'max-body': {
    type: 'string',
    value: 'SIZE',
    help: 'largest request body (K, M, G suffixes); larger requests get 413 before they are read',
    default: '16M',
  },
  'max-concurrent': {
    type: 'string',
    value: 'N',
    help: 'tool calls running at once on this server; more are answered busy',
    default: '4',
  },
  'max-upload': {
    type: 'string',
    value: 'SIZE',
    help: 'largest single upload (put_sample, put_sample_begin)',
    default: '2G',
  },
  'max-upload-total': {
    type: 'string',
    value: 'SIZE',
    help: 'upload bytes kept at once (stored samples plus uploads in progress)',
    default: '8G',
  },
  // Test knob: how long a stored sample may stay unused before the node removes it (default 30 minutes).
  'upload-idle-ms': { type: 'string', value: 'MS', help: 'sample idle time before removal', hidden: true },
} as const satisfies FlagSpecs;

export const mcpSpec = defineSubcommand({
  name: 'mcp',
  summary: 'run the MCP server for agents (stdio, or --http PORT)',
  usage: [
    'mcp [--http PORT [--token-file PATH | --token-env NAME]] [--bridge PORT [--bridge-token-file PATH]] [--automation-read-root DIR]... [--automation-write-root DIR]...',
    'mcp --redis URL [--chunk-size N] [--http PORT ...] [--automation-read-root DIR]... [--automation-write-root DIR]...',
    'mcp --http PORT --host ADDRESS [--tls-cert PEM --tls-key PEM] [--allow-host NAME]... [--max-body SIZE] [--max-concurrent N] [--max-upload SIZE] [--max-upload-total SIZE] --automation-write-root DIR',
  ],
  description:
    "Runs the MCP server for agents: stdio by default (add it to your MCP client's config), or streamable HTTP on 127.0.0.1 with --http. Serves both the 2025-11-25 (initialize) and 2026-07-28 (per-request _meta) eras.\n\nOver HTTP it is a render node for clients on other machines (--host, TLS): clients upload samples with put_sample (kept under the first --automation-write-root) and fetch what renders wrote with get_output.\n\nWith --redis, renders (renderQueue.render, blocking, wait:false or as a task) run on `effectcraft-cli worker --redis URL` processes instead of in the server: progress, renderQueue.list, renderQueue.stop and cancellation work as locally. Confined (--automation-*-root), each job carries the roots and every worker confines its reads and writes to them.",
  positionals: false,
  flags: {
    http: {
      type: 'string',
      value: 'PORT',
      help: 'serve http://127.0.0.1:PORT/mcp instead of stdio (0 picks a free port); every request needs "Authorization: Bearer <token>"; adds the upload tools and get_output',
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
    ...REMOTE_NODE_FLAGS,
    ...CONFINEMENT_FLAGS,
    redis: {
      type: 'string',
      value: 'URL',
      help: 'render on `effectcraft-cli worker --redis URL` processes through this Redis (redis://HOST:PORT) instead of in the server; checked at start (unreachable: exit 1); the workers need the footage and the outputs at the same paths (docs/distributed.md). Not with --bridge',
    },
    ...CHUNK_FLAGS,
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
  notes: 'Docs: docs/mcp.md, docs/remote.md (a render node for clients on other machines), docs/bridge.md',
});
