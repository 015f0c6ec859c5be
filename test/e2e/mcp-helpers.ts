/** Helpers for the MCP end-to-end tests: the built CLI as a real child process speaking raw stdio lines. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach } from 'vitest';
import { cliPath } from '../helpers/cli.js';

export type Message = {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

export const MODERN = '2026-07-28';

/** The `_meta` envelope a 2026-07-28 request carries. */
export function envelope(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...extra,
  };
}

const live: RawServer[] = [];
afterEach(() => {
  for (const s of live.splice(0)) s.kill();
});

/** `effectcraft-cli mcp` over raw lines: every stdout line is parsed and kept, in order. */
export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  readonly stdoutLines: string[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  #waiters: (() => void)[] = [];

  constructor(args: string[] = []) {
    this.child = spawn(process.execPath, [cliPath, 'mcp', ...args], { stdio: 'pipe' });
    live.push(this);
    let buf = '';
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        this.stdoutLines.push(line);
        this.messages.push(JSON.parse(line) as Message);
      }
      for (const w of this.#waiters.splice(0)) w();
    });
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  send(message: unknown): void {
    this.child.stdin.write(JSON.stringify(message) + '\n');
  }

  sendLine(line: string): void {
    this.child.stdin.write(line + '\n');
  }

  /** Waits until a message matching `pred` has arrived (no timing assertions: vitest's timeout bounds it). */
  async waitFor(pred: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const found = this.messages.find(pred);
      if (found) return found;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  reply(id: string | number): Promise<Message> {
    return this.waitFor((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
  }

  async request(id: string | number, method: string, params: Record<string, unknown> = {}): Promise<Message> {
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.reply(id);
  }

  /** The 2025 handshake. */
  async initialize(): Promise<Message> {
    const r = await this.request('init', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw-test', version: '1.0.0' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r;
  }

  /** A 2026-07-28 tools/call. */
  callModern(
    id: string | number,
    name: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown> = {},
  ) {
    this.send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, _meta: envelope(meta) },
    });
    return this.reply(id);
  }

  endInput(): void {
    this.child.stdin.end();
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}

/** The official client over stdio, in the 2025 era (default) or pinned to 2026-07-28. */
export async function connectClient(era: 'legacy' | 'modern' | 'auto', args: string[] = []): Promise<Client> {
  const client = new Client(
    { name: 'e2e', version: '1.0.0' },
    era === 'modern'
      ? { versionNegotiation: { mode: { pin: MODERN } } }
      : era === 'auto'
        ? { versionNegotiation: { mode: 'auto' as const } }
        : {},
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...args],
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

/** Commands that build a comp with a render queue item of `frames` PNG frames into `dir`. */
export function renderSetup(
  dir: string,
  frames: number,
  size = 64,
): { id: string; params: Record<string, unknown> }[] {
  return [
    {
      id: 'comp.new',
      params: { name: 'R', width: size, height: size, frameRate: 10, duration: frames / 10 },
    },
    { id: 'renderQueue.add', params: { comp: 'R', output: `${dir}/f_[#####].png` } },
  ];
}
