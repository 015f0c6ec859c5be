/**
 * One `effectcraft-cli app` for a whole test file of studio page tests, with a control-channel client (the
 * bearer token, as an agent's bridge has) to read the document and to drive the page's UI tools (ui.set,
 * ui.control), which the app forwards to the page that was focused last.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { cliPath } from './cli.js';

export interface RpcFailure {
  code: number;
  message: string;
  data?: { code: string; message: string; remediation: string };
}

/** A minimal JSON-RPC client of the control channel; rejects with the error object on an error reply. */
export class ControlClient {
  readonly #ws: WebSocket;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: RpcFailure): void }>();
  #id = 0;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: RpcFailure };
      const p = msg.id === undefined ? undefined : this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id!);
      if (msg.error) p.reject(msg.error);
      else p.resolve(msg.result);
    });
  }

  static async connect(port: number, tokenFile: string): Promise<ControlClient> {
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { authorization: `Bearer ${token}` } });
    await once(ws, 'open');
    const client = new ControlClient(ws);
    await client.call('hello', { protocol: 1, client: 'studio-page-test' });
    return client;
  }

  call<T = Record<string, unknown>>(method: string, params: unknown = {}): Promise<T> {
    const id = ++this.#id;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  /** Runs a catalog command (engine.execute) and answers its result; rejects with the error. */
  async execute<T = Record<string, unknown>>(id: string, params: Record<string, unknown> = {}): Promise<T> {
    return (await this.call<{ result: T }>('engine.execute', { id, params })).result;
  }

  /**
   * A 10 s composition "Main" (made active) holding "Nested": a precomp layer of a 10 s composition "Inner",
   * a layer with a length of source to retime.
   */
  async nestedScene(): Promise<{ main: string; nested: string }> {
    const size = { width: 64, height: 36, duration: 10 };
    const inner = await this.execute<{ id: string }>('comp.new', { name: 'Inner', ...size });
    const main = (await this.execute<{ id: string }>('comp.new', { name: 'Main', ...size })).id;
    const layer = { comp: main, source: inner.id, name: 'Nested' };
    return { main, nested: (await this.execute<{ id: string }>('layer.addPrecomp', layer)).id };
  }

  close(): void {
    this.#ws.terminate();
  }
}

/** The app as a child process, started with `args`; `link` is the one-time studio link it printed. */
export class StudioApp {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';

  private constructor(args: string[]) {
    this.child = spawn(process.execPath, [cliPath, 'app', ...args], { stdio: 'pipe' });
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
  }

  static async start(dir: string, args: string[] = []): Promise<{ app: StudioApp; control: ControlClient }> {
    const tokenFile = join(dir, 'app.token');
    const app = new StudioApp(['--port', '0', '--token-file', tokenFile, ...args]);
    while (!/studio: http/.test(app.stderr) || !/listening on ws:/.test(app.stderr)) {
      if (app.child.exitCode !== null) throw new Error(`app exited early: ${app.stderr}`);
      await Promise.race([once(app.child.stderr, 'data'), once(app.child, 'exit')]);
    }
    const control = await ControlClient.connect(app.port, tokenFile);
    return { app, control };
  }

  get port(): number {
    return Number(/listening on ws:\/\/[^:]+:(\d+)/.exec(this.stderr)![1]);
  }

  /** The one-time link printed at start-up. */
  get link(): string {
    return /studio: (http:\/\/\S+)/.exec(this.stderr)![1]!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exited;
  }
}
