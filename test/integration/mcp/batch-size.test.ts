/**
 * A batch's result stays readable by a model: 1,500 layer.addText steps answered 242 KB. Over 32 KB of results,
 * successful steps keep their result's id (what a later call needs), failures and warnings stay whole; over it
 * still, successful steps are left out and counted. Small batches are unchanged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface BatchOut {
  completed: number;
  failed: number;
  results: Array<{ index: number; ok: boolean; result?: unknown; warnings?: string[]; error?: unknown }>;
  ids?: Array<string | null>;
  note?: string;
}

async function batch(
  tool: string,
  steps: object[],
  extra: object = {},
): Promise<{ out: BatchOut; chars: number }> {
  const r = (await h!.client.callTool({ name: tool, arguments: { steps, ...extra } })) as CallToolResult;
  return { out: r.structuredContent as unknown as BatchOut, chars: JSON.stringify(r).length };
}

const texts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: 'layer.addText', params: { text: `Line ${i}` } }));

describe('batch result size', () => {
  for (const tool of ['command_batch', 'batch']) {
    it(`${tool}: 1,500 steps answer in under 80 KB: every id by index, the step with a warning whole`, async () => {
      h = await harness();
      await h.client.callTool({
        name: 'command_run',
        arguments: { id: 'comp.new', params: { name: 'c', width: 64, height: 64 } },
      });
      // A step with a warning (scale as a factor) and, for command_batch, a failing step that does not stop it.
      const steps = [
        ...texts(1500),
        { id: 'property.set', params: { layer: '$0.id', property: 'transform.scale', value: [2, 2] } },
      ];
      const { out, chars } = await batch(tool, steps);
      expect(out.completed).toBe(1501);
      expect(chars).toBeLessThan(80_000);
      expect(out.note).toMatch(/ids gives each step's result id by step index/);
      expect(out.ids).toHaveLength(1501);
      expect(out.ids![0]).toMatch(/^layer_/);
      expect(new Set(out.ids!.slice(0, 1500)).size).toBe(1500);
      // The one step with a warning is listed whole.
      expect(out.results).toHaveLength(1);
      expect(out.results[0]).toMatchObject({ index: 1500, ok: true });
      expect(out.results[0]!.warnings?.[0]).toContain('transform.scale is in percent');
      // Small batches are whole.
      const small = await batch(tool, texts(2));
      expect(small.out).not.toHaveProperty('note');
      expect(small.out).not.toHaveProperty('ids');
      expect(small.out.results).toHaveLength(2);
    });
  }

  it('command_batch: 6,000 steps leave successful ones out, counted; the failure is listed', async () => {
    h = await harness();
    await h.client.callTool({
      name: 'command_run',
      arguments: { id: 'comp.new', params: { name: 'c', width: 64, height: 64 } },
    });
    const steps = [...texts(6000), { id: 'layer.delete', params: { layer: 'no such layer' } }];
    const { out, chars } = await batch('command_batch', steps, { stop_on_error: false });
    expect(out).toMatchObject({ completed: 6000, failed: 1 });
    expect(chars).toBeLessThan(80_000);
    expect(out.note).toMatch(/6000 successful steps without warnings are left out/);
    expect(out.results).toHaveLength(1);
    expect(out.results[0]).toMatchObject({ index: 6000, ok: false });
  }, 60_000);
});
