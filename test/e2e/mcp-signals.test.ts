import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { RawServer, renderSetup, type Message } from './mcp-helpers.js';

const call = (s: RawServer, id: number, name: string, args: Record<string, unknown>) =>
  s.request(id, 'tools/call', { name, arguments: args });
const structured = (m: Message) =>
  (m.result as { structuredContent: Record<string, unknown> }).structuredContent;

describe('mcp: signals during a background render (built CLI)', () => {
  for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
    it(`${signal} stops a wait:false render and removes its unfinished files`, async () => {
      const dir = await tempDir();
      const s = new RawServer();
      await s.initialize();
      await call(s, 1, 'command_batch', { steps: renderSetup(dir, 3000, 256) });
      const started = await call(s, 2, 'command_run', { id: 'renderQueue.render', params: { wait: false } });
      expect((started.result as { isError?: boolean }).isError).toBeUndefined();
      // Wait until frames are on disk (no timing assertions: vitest's timeout bounds this loop).
      for (let id = 3; ; id++) {
        const list = structured(await call(s, id, 'command_run', { id: 'renderQueue.list' })) as {
          items: { framesDone: number }[];
        };
        if ((list.items[0]?.framesDone ?? 0) > 5) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      s.child.kill(signal);
      expect(await s.exited).toBe(0);
      expect(await readdir(dir)).toEqual([]);
    });
  }
});

describe('mcp: a reused request id (built CLI)', () => {
  it('refuses a request that reuses the id of a render in flight; the render still replies and keeps its files', async () => {
    const dir = await tempDir();
    const s = new RawServer();
    await s.initialize();
    await call(s, 1, 'command_batch', { steps: renderSetup(dir, 40, 64) });
    s.send({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'command_run', arguments: { id: 'renderQueue.render' } },
    });
    s.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    s.child.stdin.end();
    const duplicate = await s.waitFor((m) => m.id === 5 && m.error !== undefined);
    expect(duplicate.error?.code).toBe(-32600);
    const rendered = await s.waitFor((m) => m.id === 5 && m.result !== undefined);
    expect((rendered.result as { isError?: boolean }).isError).toBeUndefined();
    expect(structured(rendered)).toMatchObject({ items: [expect.objectContaining({ status: 'done' })] });
    expect(await s.exited).toBe(0);
    // 40 frames and their manifest.
    expect((await readdir(dir)).length).toBe(41);
  });
});
