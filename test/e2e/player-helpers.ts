/**
 * Helpers for the preview player's end-to-end test (mcp-player.test.ts): a comp whose frame number shows in its
 * pixels, the official client as an MCP Apps host's, the host page built on the ext-apps AppBridge, and the view
 * shown in Chromium from an origin of its own under the MCP Apps default CSP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { afterAll, afterEach, expect } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolRequest,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
  isToolVisibilityModelOnly,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Locator, Page } from 'playwright-core';
import { browser } from '../helpers/chromium.js';
import { cliPath } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { MODERN } from './mcp-helpers.js';

const APPS_CAPABILITY = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };
/** The spec's restrictive default, which hosts apply to a view that declares no CSP domains. */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'";
const TOKEN_ENV = 'E2E_PLAYER_TOKEN';
const TOKEN = 'e2e-player-token-0123456789';

/** A comp whose frame number is visible in its pixels: a 4 px white bar centred at x = 40 + frame. */
export const PROJECT = [
  {
    id: 'comp.new',
    params: {
      name: 'Player test',
      width: 320,
      height: 180,
      frameRate: 30,
      duration: 4,
      backgroundColor: '#1e293b',
    },
  },
  { id: 'layer.addSolid', params: { name: 'Bar', color: '#ffffff', width: 4, height: 180 } },
  ...[0, 119].map((frame) => ({
    id: 'property.setKeyframe',
    params: {
      layer: 'Bar',
      property: 'transform.position',
      time: frame / 30,
      value: [40 + frame, 90],
      interpolation: 'linear',
    },
  })),
  { id: 'layer.addText', params: { name: 'Label', text: 'EffectCraft', fontSize: 28, fill: '#fbbf24' } },
  { id: 'property.set', params: { layer: 'Label', property: 'transform.position', value: [160, 50] } },
];

/** The x centre of the white bar on the bottom row of a PNG (where the label is not). */
export async function barCentre(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const y = info.height - 8;
  const xs: number[] = [];
  for (let x = 0; x < info.width; x++) {
    const i = (y * info.width + x) * info.channels;
    if (data[i]! > 250 && data[i + 1]! > 250 && data[i + 2]! > 250) xs.push(x);
  }
  expect(xs.length).toBeGreaterThan(0);
  return xs.reduce((a, b) => a + b, 0) / xs.length + 0.5;
}

const children: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const c of children.splice(0)) c.kill();
});

/** The official client as an MCP Apps host's, over stdio or --http, in one era. */
export async function connect(
  transport: 'stdio' | 'http',
  era: 'legacy' | 'modern',
  apps: boolean,
): Promise<Client> {
  const client = new Client(
    { name: 'e2e-player-host', version: '1.0.0' },
    {
      ...(era === 'modern' && { versionNegotiation: { mode: { pin: MODERN } } }),
      ...(apps && { capabilities: APPS_CAPABILITY }),
    },
  );
  clients.push(client);
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp'], stderr: 'pipe' }),
    );
    return client;
  }
  const child = spawn(process.execPath, [cliPath, 'mcp', '--http', '0', '--token-env', TOKEN_ENV], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, [TOKEN_ENV]: TOKEN },
  });
  children.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  while (!/listening on http\S+/.test(stderr)) {
    if (child.exitCode !== null) throw new Error(`mcp --http exited: ${stderr}`);
    await Promise.race([once(child.stderr!, 'data'), once(child, 'exit')]);
  }
  const url = /listening on (http\S+)/.exec(stderr)![1]!;
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return client;
}

/** Serves fixed files on 127.0.0.1; each server is an origin of its own (host page, view sandbox). */
async function serve(files: Record<string, { body: string; headers?: Record<string, string> }>) {
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    requested.push(req.url ?? '');
    const file = files[(req.url ?? '/').split('?')[0]!];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...file.headers }).end(file.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requested, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The host page, bundled with vite as a host application bundles the AppBridge, into one file. */
export async function buildHostPage(): Promise<string> {
  const out = await tempDir('ec-player-host-');
  await build({
    configFile: false,
    root: fileURLToPath(new URL('./player-host', import.meta.url)),
    base: './',
    logLevel: 'silent',
    plugins: [viteSingleFile()],
    build: { outDir: out, emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
  });
  return readFile(join(out, 'index.html'), 'utf8');
}

/** Console errors, page errors and requests to any other origin, as a list that should stay empty. */
function watch(page: Page, origins: string[]): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('data:') && !origins.some((o) => url.startsWith(o))) problems.push(`request: ${url}`);
  });
  return problems;
}

export interface PlayerCall {
  tools: Tool[];
  /** The view's HTML, as read from the resource preview_player names. */
  html: string;
  toolArguments: Record<string, unknown>;
  result: CallToolResult;
}

/** What a host does when the model calls preview_player: build the test comp, call the tool, read its view. */
export async function callPlayer(client: Client): Promise<PlayerCall> {
  const built = await client.callTool({ name: 'command_batch', arguments: { steps: PROJECT } });
  expect(built.isError).toBeFalsy();
  const { tools } = await client.listTools();
  const uri = getToolUiResourceUri(tools.find((t) => t.name === 'preview_player')!);
  expect(uri).toBe('ui://effectcraft/player');
  const resource = await client.readResource({ uri: uri! });
  const view = resource.contents[0] as { mimeType?: string; text?: string };
  expect(view.mimeType).toBe(RESOURCE_MIME_TYPE);
  expect(view.text).toMatch(/^<!doctype html>/i);
  const toolArguments = { max_side: 320 };
  const result = (await client.callTool({
    name: 'preview_player',
    arguments: toolArguments,
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return { tools, html: view.text!, toolArguments, result };
}

type Forward = () => Promise<CallToolResult>;

/**
 * Shows the view in Chromium: the host page (AppBridge) on one origin, the view on another under the default
 * CSP, the view's tool calls relayed to the real server through `client` (through `relay` when given).
 */
export async function showPlayer(
  hostPage: string,
  client: Client,
  called: PlayerCall,
  relay: (params: CallToolRequest['params'], forward: Forward) => Promise<CallToolResult> = (_p, f) => f(),
) {
  const sandbox = await serve({
    '/view.html': { body: called.html, headers: { 'content-security-policy': DEFAULT_CSP } },
  });
  const host = await serve({ '/': { body: hostPage } });
  servers.push(sandbox, host);
  const context = await (await browser()).newContext({ viewport: { width: 640, height: 560 } });
  const page = await context.newPage();
  const problems = watch(page, [sandbox.origin, host.origin]);
  const calls: CallToolRequest['params'][] = [];
  await page.exposeFunction('hostCallTool', async (params: CallToolRequest['params']) => {
    // A host lets a view call only its own server's tools whose visibility includes "app".
    const tool = called.tools.find((t) => t.name === params.name);
    if (!tool || isToolVisibilityModelOnly(tool)) throw new Error(`${params.name} is not callable by apps`);
    calls.push(params);
    return relay(params, () => client.callTool(params) as Promise<CallToolResult>);
  });
  await page.goto(host.origin + '/');
  const app = {
    viewUrl: `${sandbox.origin}/view.html`,
    toolArguments: called.toolArguments,
    toolResult: called.result,
  };
  await page.evaluate((a) => (window as unknown as { showApp(x: typeof a): Promise<void> }).showApp(a), app);
  return { page, view: page.frameLocator('#view'), calls, problems, sandbox };
}

/** The PNG an <img> of the view shows (a data: URL). */
export async function shownPng(img: Locator): Promise<Buffer> {
  const src = (await img.getAttribute('src'))!;
  expect(src.startsWith('data:image/png;base64,')).toBe(true);
  return Buffer.from(src.slice(src.indexOf(',') + 1), 'base64');
}
