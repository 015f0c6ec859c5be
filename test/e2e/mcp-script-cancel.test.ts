import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { RawServer, renderSetup, type Message } from './mcp-helpers.js';

const callMsg = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const structured = (m: Message) =>
  (m.result as { structuredContent: Record<string, unknown> }).structuredContent;

describe('run_script: cancellation and limits reach what the script runs (built CLI)', () => {
  it('notifications/cancelled stops a running script: no reply for it, and the next call is served', async () => {
    const s = new RawServer();
    await s.initialize();
    s.send(callMsg(1, 'run_script', { code: 'while (true) {}', timeout_ms: 600000 }));
    s.send(callMsg(2, 'doc_inspect', {}));
    // Give the script a moment to start, then cancel it (no timing assertion: the test only waits).
    await new Promise((r) => setTimeout(r, 300));
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    const inspected = await s.reply(2);
    expect((inspected.result as { isError?: boolean }).isError).toBeUndefined();
    await s.request(3, 'ping');
    expect(s.messages.some((m) => m.id === 1)).toBe(false);
  });

  it('a script timing out stops the render it waits on, with exact cleanup', async () => {
    const dir = await tempDir();
    const s = new RawServer();
    await s.initialize();
    await s.request(1, 'tools/call', {
      name: 'command_batch',
      arguments: { steps: renderSetup(dir, 3000, 256) },
    });
    const r = await s.request(2, 'tools/call', {
      name: 'run_script',
      arguments: { code: "await app.run('renderQueue.render', {}); return 'rendered';", timeout_ms: 1500 },
    });
    expect((r.result as { isError?: boolean }).isError).toBe(true);
    expect(structured(r)).toMatchObject({ code: 'timeout' });
    const list = structured(
      await s.request(3, 'tools/call', { name: 'command_run', arguments: { id: 'renderQueue.list' } }),
    ) as {
      items: { status: string }[];
    };
    expect(list.items[0]!.status).toBe('stopped');
    expect(await readdir(dir)).toEqual([]);
  });
});
