/** Helpers for the bridge end-to-end tests: the built CLI's `app` as a real child process, and raw sockets. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach } from 'vitest';
import WebSocket from 'ws';
import { cliPath } from '../helpers/cli.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `effectcraft-cli app` as a child process; resolves once it listens (its stderr says where). */
export class AppProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  port = 0;
  readonly exited: Promise<number | null>;

  private constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [cliPath, 'app', ...args], {
      stdio: 'pipe',
      env: { ...process.env, ...env },
    });
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    cleanups.push(() => this.kill('SIGKILL'));
  }

  static async start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<AppProcess> {
    const app = new AppProcess(args, env);
    for (;;) {
      const m = /listening on ws:\/\/[^:]+:(\d+)/.exec(app.stderr);
      if (m && app.stderr.includes('token file:')) {
        app.port = Number(m[1]);
        return app;
      }
      if (app.child.exitCode !== null) throw new Error(`app exited early: ${app.stderr}`);
      await Promise.race([once(app.child.stderr, 'data'), app.exited]);
    }
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}

/** The official MCP client over stdio to `effectcraft-cli mcp ...args`; closed after the test. */
export async function mcpClient(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'bridge-e2e', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, stderr: () => stderr };
}

/**
 * `effectcraft-cli app` (with `appArgs`) on a free port and token file in `dir`, and an MCP client over
 * `effectcraft-cli mcp --bridge` (with `mcpArgs`, e.g. confinement roots) pointed at it.
 */
export async function appAndClient(
  dir: string,
  appArgs: string[] = [],
  mcpArgs: string[] = [],
  appEnv: NodeJS.ProcessEnv = {},
) {
  const tokenFile = join(dir, 'app.token');
  const app = await AppProcess.start(['--port', '0', '--token-file', tokenFile, ...appArgs], appEnv);
  const mcp = await mcpClient(['--bridge', String(app.port), '--bridge-token-file', tokenFile, ...mcpArgs]);
  return { app, tokenFile, ...mcp };
}

/** Calls a tool; returns its structured content and whether it is an error result. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; body: Record<string, unknown>; content: unknown[] }> {
  const r = await client.callTool({ name, arguments: args });
  return {
    isError: r.isError === true,
    body: (r.structuredContent ?? {}) as Record<string, unknown>,
    content: r.content as unknown[],
  };
}

/** Runs one engine command through command_run. */
export const run = (client: Client, id: string, params: Record<string, unknown> = {}) =>
  call(client, 'command_run', { id, params });

/** Opens a raw WebSocket to the app; reports the refusal status or the open socket. */
export function rawSocket(
  port: number,
  headers: Record<string, string>,
): Promise<{ status?: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers });
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode });
      ws.terminate();
    });
    ws.once('open', () => {
      cleanups.push(() => ws.terminate());
      resolve({ ws });
    });
    ws.on('error', () => {});
  });
}
