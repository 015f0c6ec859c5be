import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioWire } from '../../../src/mcp/stdio-wire.js';

function setup(options: { maxLineBytes?: number } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: Record<string, unknown>[] = [];
  let buf = '';
  stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const l of lines) out.push(JSON.parse(l) as Record<string, unknown>);
  });
  const wire = new StdioWire({ stdin, stdout, ...options });
  const received: JSONRPCMessage[] = [];
  wire.onmessage = (m) => received.push(m);
  let closedEvents = 0;
  wire.onclose = () => closedEvents++;
  return { stdin, out, wire, received, closedEvents: () => closedEvents };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('StdioWire', () => {
  it('answers -32700 (null id) for bad JSON, -32600 for non-JSON-RPC, and keeps delivering', async () => {
    const t = setup();
    await t.wire.start();
    t.stdin.write('not json\n{"a":1}\n{"jsonrpc":"2.0","id":3,"method":7}\r\n\n');
    t.stdin.write('{"jsonrpc":"2.0","id":4,"meth');
    t.stdin.write('od":"ping"}\n');
    await tick();
    expect(t.out.map((m) => [m.id, (m.error as { code: number }).code])).toEqual([
      [null, -32700],
      [null, -32600],
      [3, -32600],
    ]);
    expect(t.received).toEqual([{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
  });

  it('answers -32022 for any request claiming an unsupported protocol version', async () => {
    const t = setup();
    await t.wire.start();
    const meta = (v: string) => ({
      _meta: {
        'io.modelcontextprotocol/protocolVersion': v,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    });
    t.stdin.write(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('2026-07-28') }) + '\n',
    );
    t.stdin.write(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: meta('1999-01-01') }) + '\n',
    );
    await tick();
    expect(t.received.map((m) => (m as { id: number }).id)).toEqual([1]);
    expect(t.out).toEqual([
      {
        jsonrpc: '2.0',
        id: 2,
        error: expect.objectContaining({
          code: -32022,
          data: { supported: ['2026-07-28', '2025-11-25'], requested: '1999-01-01' },
        }),
      },
    ]);
  });

  it('skips an over-long line with -32600 and resynchronises at the next newline', async () => {
    const t = setup({ maxLineBytes: 64 });
    await t.wire.start();
    t.stdin.write('x'.repeat(50));
    t.stdin.write('y'.repeat(50));
    t.stdin.write('zzz\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await tick();
    expect(t.out.map((m) => (m.error as { code: number }).code)).toEqual([-32600]);
    expect(t.received).toHaveLength(1);
  });

  it('on stdin end waits for outstanding replies, then closes once', async () => {
    const t = setup();
    await t.wire.start();
    t.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}\n');
    t.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"y"}}\n');
    t.stdin.end();
    await tick();
    expect(t.closedEvents()).toBe(0);
    expect(t.wire.pendingRequests).toBe(2);
    await t.wire.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(t.closedEvents()).toBe(0);
    await t.wire.send({ jsonrpc: '2.0', id: 2, result: {} });
    await t.wire.closed;
    expect(t.closedEvents()).toBe(1);
    await t.wire.close();
    expect(t.closedEvents()).toBe(1);
    expect(t.out.map((m) => m.id)).toEqual([1, 2]);
  });

  it('a cancelled request does not hold the wire open after stdin ends', async () => {
    const t = setup();
    await t.wire.start();
    t.stdin.write('{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}\n');
    t.stdin.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}\n');
    t.stdin.end();
    await t.wire.closed;
    expect(t.closedEvents()).toBe(1);
    await expect(t.wire.send({ jsonrpc: '2.0', id: 'a', result: {} })).rejects.toThrow();
  });

  it('answers a request that reuses an id in flight with -32600, and still drains the first reply', async () => {
    const t = setup();
    await t.wire.start();
    t.stdin.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"command_run"}}\n');
    t.stdin.write('{"jsonrpc":"2.0","id":5,"method":"ping"}\n');
    t.stdin.end();
    await tick();
    expect(t.received.map((m) => (m as { method: string }).method)).toEqual(['tools/call']);
    expect(t.out).toEqual([
      {
        jsonrpc: '2.0',
        id: 5,
        error: expect.objectContaining({ code: -32600, data: { reason: 'duplicate_request_id', id: 5 } }),
      },
    ]);
    // stdin is closed, but the first request is still running: the wire waits for its reply.
    expect(t.closedEvents()).toBe(0);
    await t.wire.send({ jsonrpc: '2.0', id: 5, result: { content: [] } } as JSONRPCMessage);
    await tick();
    expect(t.out.at(-1)).toEqual({ jsonrpc: '2.0', id: 5, result: { content: [] } });
    expect(t.closedEvents()).toBe(1);
  });
});
