/** Helpers for the tasks-extension end-to-end tests: declared capabilities, task polling, HTTP raw wire. */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, expect } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { envelope, MODERN, type Message } from './mcp-helpers.js';

export const TASKS = 'io.modelcontextprotocol/tasks';

/** A 2026-07-28 `_meta` envelope whose client capabilities declare the tasks extension. */
export function declaring(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return envelope({
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
    ...extra,
  });
}

/** Sends one request and resolves with its reply (stdio RawServer or HTTP, same shape). */
export type Ask = (method: string, params: Record<string, unknown>) => Promise<Message>;

/** The fields of a Task (SEP-2663) every CreateTaskResult and tasks/get answer carries, checked. */
export function expectTaskFields(task: Record<string, unknown> | undefined): void {
  expect(task).toBeDefined();
  expect(task!.taskId).toEqual(expect.any(String));
  expect(task!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  expect(task!.lastUpdatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  expect(Number.isInteger(task!.ttlMs) && (task!.ttlMs as number) > 0).toBe(true);
  expect(Number.isInteger(task!.pollIntervalMs) && (task!.pollIntervalMs as number) > 0).toBe(true);
  expect(task).not.toHaveProperty('ttl');
  expect(task).not.toHaveProperty('pollInterval');
  expect(task).not.toHaveProperty('requestState');
}

/** Polls tasks/get until `done` holds for the task (vitest's timeout bounds it; no timing assertion). */
export async function pollTask(
  ask: Ask,
  taskId: string,
  done: (task: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (;;) {
    const reply = await ask('tasks/get', { taskId, _meta: declaring() });
    expect(reply.error).toBeUndefined();
    const task = reply.result!;
    if (done(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

export const HTTP_TOKEN_ENV = 'E2E_TASKS_TOKEN';
const HTTP_TOKEN = 'e2e-tasks-token-0123456789abcdef';

/** `mcp --http 0` spoken to in raw JSON-RPC over POST, with the standard headers a 2026-07-28 client sends. */
export class HttpMcp {
  #next = 1;
  constructor(
    readonly url: string,
    readonly child: ChildProcess,
  ) {}

  /** SIGTERM, as a service manager stops it; resolves with the exit code. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.kill('SIGTERM');
    return exited;
  }

  /** Starts the server; resolves once it listens. */
  static async start(): Promise<HttpMcp> {
    const child = spawn(process.execPath, [cliPath, 'mcp', '--http', '0', '--token-env', HTTP_TOKEN_ENV], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, [HTTP_TOKEN_ENV]: HTTP_TOKEN },
    });
    children.push(child);
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        err += d;
        const m = /listening on (http\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    return new HttpMcp(url, child);
  }

  /** POSTs one request. `mcpName` overrides the Mcp-Name header (null: leave it out). */
  async post(
    method: string,
    params: Record<string, unknown>,
    mcpName?: string | null,
  ): Promise<{ status: number; message: Message }> {
    const id = this.#next++;
    const name = params.taskId ?? params.name;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${HTTP_TOKEN}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
    };
    const header = mcpName === undefined ? (typeof name === 'string' ? name : undefined) : mcpName;
    if (header !== undefined && header !== null) headers['mcp-name'] = header;
    const res = await fetch(this.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    const text = await res.text();
    // A reply comes as JSON or as an SSE stream whose data lines carry JSON-RPC messages.
    const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => JSON.parse(l.slice(5)) as Message)
      : [JSON.parse(text) as Message];
    const message = messages.find((m) => m.id === id) ?? messages.at(-1)!;
    return { status: res.status, message };
  }

  /** An Ask for pollTask and the shared checks. */
  readonly ask: Ask = async (method, params) => (await this.post(method, params)).message;
}
