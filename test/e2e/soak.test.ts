/**
 * Soak: the built CLI takes thousands of mixed calls (edits, batches, undo/redo, inspection, previews, catalog
 * listings, pings) with random cancellations, over stdio and over HTTP. Every call that was not cancelled gets
 * exactly one answer, the server keeps answering to the end, and its memory stays bounded (undo history is capped,
 * so a steady mix must not grow without end).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cliPath } from '../helpers/cli.js';
import { RawServer, type Message } from './mcp-helpers.js';
import { rng } from '../helpers/fuzz.js';

const MB = 1024 * 1024;
/** Growth allowed between the warmed-up server and the end of the soak (heap noise, caches, 500 undo steps). */
const GROWTH_BOUND = 160 * MB;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
}

/** One random call of the steady mix: name and arguments of a tools/call, or null for a ping. */
function mixedCall(random: () => number): { name: string; arguments: Record<string, unknown> } | null {
  const pick = random();
  const opacity = Math.round(random() * 100);
  if (pick < 0.25)
    return {
      name: 'command_run',
      arguments: { id: 'property.set', params: { layer: 'Solid', property: 'opacity', value: opacity } },
    };
  if (pick < 0.35)
    return { name: 'command_run', arguments: { id: random() < 0.5 ? 'edit.undo' : 'edit.redo' } };
  if (pick < 0.45)
    return {
      name: 'command_batch',
      arguments: {
        steps: Array.from({ length: 5 }, (_, i) => ({
          id: 'property.set',
          params: { layer: 'Solid', property: 'rotation', value: opacity + i },
        })),
      },
    };
  if (pick < 0.55) return { name: 'doc_inspect', arguments: {} };
  if (pick < 0.7) return { name: 'render_preview', arguments: { max_side: 64, time: random() } };
  if (pick < 0.8) return { name: 'command_list', arguments: { filter: 'layer' } };
  if (pick < 0.9)
    return {
      name: 'command_batch',
      arguments: {
        steps: [
          { id: 'comp.new', params: { name: 'Tmp', width: 8, height: 8 } },
          { id: 'comp.delete', params: { comp: 'Tmp' } },
        ],
      },
    };
  return null;
}

const SETUP = [
  { id: 'comp.new', params: { name: 'Main', width: 320, height: 180, duration: 2 } },
  { id: 'layer.addSolid', params: { name: 'Solid', color: 'teal' } },
  { id: 'layer.addText', params: { text: 'Soak' } },
];

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

describe('soak (built CLI)', () => {
  it('stdio: 2,000 mixed calls with random cancellations; every other call answered once; memory bounded', async () => {
    const s = new RawServer();
    await s.initialize();
    const random = rng(11);
    let id = 0;
    const send = (call: ReturnType<typeof mixedCall>) => {
      const n = ++id;
      if (call) s.send({ jsonrpc: '2.0', id: n, method: 'tools/call', params: call });
      else s.send({ jsonrpc: '2.0', id: n, method: 'ping' });
      return n;
    };
    const answered = (n: number) => s.reply(n);
    await answered(send({ name: 'command_batch', arguments: { steps: SETUP } }));
    // Warm up (code paths compiled, caches filled) before the baseline is taken.
    for (let i = 0; i < 100; i++) await answered(send(mixedCall(random)));
    const before = await rssOf(s.child.pid!);

    const cancelled = new Set<number>();
    const expected: number[] = [];
    const TOTAL = 2000;
    const WINDOW = 16;
    let inFlight: number[] = [];
    for (let i = 0; i < TOTAL; i++) {
      const n = send(mixedCall(random));
      if (random() < 0.1) {
        s.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: n, reason: 'soak' },
        });
        cancelled.add(n);
      } else {
        expected.push(n);
        inFlight.push(n);
      }
      if (inFlight.length >= WINDOW) {
        await Promise.all(inFlight.map(answered));
        inFlight = [];
      }
    }
    await Promise.all(inFlight.map(answered));
    // Still answering at the end, and a last ping proves nothing is stuck behind a cancelled call.
    await answered(send(null));
    const after = await rssOf(s.child.pid!);

    const replies = new Map<number, number>();
    for (const m of s.messages as Message[]) {
      if (typeof m.id === 'number' && (m.result !== undefined || m.error !== undefined))
        replies.set(m.id, (replies.get(m.id) ?? 0) + 1);
    }
    expect(expected.filter((n) => replies.get(n) !== 1)).toEqual([]);
    expect([...cancelled].filter((n) => (replies.get(n) ?? 0) > 1)).toEqual([]);
    // No tool failed for reasons of its own (tool_failed is a bug, not an answer).
    expect(s.stdoutLines.filter((l) => l.includes('tool_failed'))).toEqual([]);
    expect(after - before).toBeLessThan(GROWTH_BOUND);
    s.endInput();
    expect(await s.exited).toBe(0);
  });

  it('HTTP: 1,000 mixed calls, 8 at a time, some aborted; the others all answered; memory bounded', async () => {
    const token = 'soak-token-0123456789abcdef';
    const child = spawn(process.execPath, [cliPath, 'mcp', '--http', '0', '--token-env', 'SOAK_MCP_TOKEN'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SOAK_MCP_TOKEN: token },
    });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        err += d;
        const m = /listening on (http\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const client = new Client({ name: 'soak', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const random = rng(23);
    const call = async (c: ReturnType<typeof mixedCall>, signal?: AbortSignal) => {
      if (!c) return client.ping({ signal });
      return client.callTool(c, { signal });
    };
    await call({ name: 'command_batch', arguments: { steps: SETUP } });
    for (let i = 0; i < 50; i++) await call(mixedCall(random));
    const before = await rssOf(child.pid!);

    let answered = 0;
    let aborted = 0;
    const failures: string[] = [];
    for (let round = 0; round < 125; round++) {
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          const c = mixedCall(random);
          const ac = new AbortController();
          const abort = random() < 0.1;
          if (abort) setTimeout(() => ac.abort('soak'), Math.floor(random() * 5));
          try {
            const r = await call(c, ac.signal);
            answered++;
            const text = JSON.stringify(r);
            if (text.includes('tool_failed')) failures.push(text.slice(0, 200));
          } catch (err) {
            if (abort) aborted++;
            else failures.push(String(err));
          }
        }),
      );
    }
    await client.ping();
    const after = await rssOf(child.pid!);
    expect(failures).toEqual([]);
    expect(answered + aborted).toBe(1000);
    expect(after - before).toBeLessThan(GROWTH_BOUND);
    await client.close();
  });
});
