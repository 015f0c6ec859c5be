/**
 * run_script over real stdio: a runaway script is stopped by its wall-clock limit with an isError timeout result,
 * and the server keeps answering (the script runs in a worker, so even a tight loop does not block it).
 */
import { describe, expect, it } from 'vitest';
import { RawServer } from './mcp-helpers.js';

describe('run_script time limit over stdio', () => {
  it('stops while(true){} after timeout_ms with code timeout; the server keeps answering', async () => {
    const s = new RawServer();
    await s.initialize();
    const r = await s.request(1, 'tools/call', {
      name: 'run_script',
      arguments: { code: 'while (true) {}', timeout_ms: 500 },
    });
    expect(r.result).toMatchObject({ isError: true, structuredContent: { code: 'timeout' } });
    const ping = await s.request(2, 'ping');
    expect(ping.result).toEqual({});
    const after = await s.request(3, 'tools/call', {
      name: 'run_script',
      arguments: { code: 'return 6 * 7' },
    });
    expect(after.result).toMatchObject({ structuredContent: { result: 42 } });
    expect(after.result?.isError).not.toBe(true);
    const caps = await s.request(4, 'tools/call', { name: 'capabilities', arguments: {} });
    const tools = (caps.result?.structuredContent as { tools: { name: string; timeout_s: number | null }[] })
      .tools;
    expect(tools.find((t) => t.name === 'run_script')?.timeout_s).toBe(30);
  });

  it('answers ping while a script is still looping, and still exits on SIGTERM', async () => {
    const s = new RawServer();
    await s.initialize();
    s.send({
      jsonrpc: '2.0',
      id: 'loop',
      method: 'tools/call',
      params: { name: 'run_script', arguments: { code: 'for (;;) {}', timeout_ms: 600_000 } },
    });
    const ping = await s.request('ping', 'ping');
    expect(ping.result).toEqual({});
    // The loop is still running: its reply has not arrived.
    expect(s.messages.some((m) => m.id === 'loop')).toBe(false);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });
});
