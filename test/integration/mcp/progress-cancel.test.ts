/** Progress and cancellation plumbing, in process, with a stand-in long-running engine command. */
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('MCP progress and cancellation (headless)', () => {
  it('reports at most ten progress notifications a second, strictly increasing, with the total', async () => {
    h = await harness();
    const seen: { progress: number; total?: number }[] = [];
    const started = performance.now();
    const r = await h.client.callTool(
      { name: 'command_run', arguments: { id: 'test.slow', params: { steps: 200, stepMs: 5 } } },
      { onprogress: (p) => seen.push(p) },
    );
    const elapsed = (performance.now() - started) / 1000;
    expect(r.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(elapsed * 10) + 1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    for (const p of seen) expect(p.total).toBe(200);
  });

  it('a cancelled request aborts the command, sends no further progress and no result', async () => {
    h = await harness();
    const ac = new AbortController();
    const seen: number[] = [];
    const call = h.client.callTool(
      { name: 'execute_command', arguments: { id: 'test.slow', params: { steps: 1000, stepMs: 5 } } },
      {
        signal: ac.signal,
        onprogress: (p) => {
          seen.push(p.progress);
          if (seen.length === 2) ac.abort('user');
        },
      },
    );
    await expect(call).rejects.toThrow();
    const countAtCancel = seen.length;
    // The server keeps serving, and the command saw the abort.
    await h.client.callTool({ name: 'doc_inspect', arguments: {} });
    while (!h.runs[0]!.aborted) await new Promise((r) => setTimeout(r, 10));
    expect(h.runs[0]!.stepsDone).toBeLessThan(1000);
    await h.client.callTool({ name: 'doc_inspect', arguments: {} });
    expect(seen.length).toBe(countAtCancel);
  });

  it('bridge backends report no progress and are not cancelled through MCP', async () => {
    h = await harness({ backend: (b) => ({ ...b, kind: 'bridge' }) });
    const seen: number[] = [];
    const r = await h.client.callTool(
      { name: 'command_run', arguments: { id: 'test.slow', params: { steps: 20, stepMs: 2 } } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(r.isError).toBeFalsy();
    expect(seen).toEqual([]);
  });

  it('batch tools report no progress', async () => {
    h = await harness();
    const seen: number[] = [];
    const r = await h.client.callTool(
      {
        name: 'command_batch',
        arguments: { steps: [{ id: 'test.slow', params: { steps: 20, stepMs: 2 } }] },
      },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(r.isError).toBeFalsy();
    expect(seen).toEqual([]);
  });
});
