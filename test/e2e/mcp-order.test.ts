import { describe, expect, it } from 'vitest';
import { RawServer, type Message } from './mcp-helpers.js';

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const structured = (m: Message) =>
  (m.result as { structuredContent?: Record<string, unknown> }).structuredContent ?? {};

describe('pipelined tool calls (built CLI, raw stdio)', () => {
  it('run in arrival order: each call sees the document its earlier calls left', async () => {
    const s = new RawServer();
    await s.initialize();
    // Sent in one write, without waiting for replies, as a pipeline would.
    s.child.stdin.write(
      [
        call(1, 'command_run', {
          id: 'comp.new',
          params: { width: 64, height: 32, backgroundColor: '#0000ff' },
        }),
        call(2, 'command_batch', {
          steps: [{ id: 'layer.addSolid', params: { color: '#ff0000' } }, { id: 'layer.addNull' }],
        }),
        call(3, 'render_preview', { max_side: 64 }),
        call(4, 'doc_inspect', {}),
        call(5, 'command_run', { id: 'edit.undo' }),
        call(6, 'doc_inspect', {}),
      ]
        .map((m) => JSON.stringify(m))
        .join('\n') + '\n',
    );
    const replies = await Promise.all([1, 2, 3, 4, 5, 6].map((id) => s.reply(id)));
    for (const r of replies)
      expect((r.result as { isError?: boolean }).isError, JSON.stringify(r).slice(0, 300)).toBeUndefined();
    const preview = replies[2]!.result as { content: { type: string }[] };
    expect(preview.content.some((c) => c.type === 'image')).toBe(true);
    const layersAt = (m: Message) =>
      ((structured(m).activeComposition as { layers: unknown[] }).layers ?? []).length;
    expect(layersAt(replies[3]!)).toBe(2);
    expect(layersAt(replies[5]!)).toBe(1);
  });
});
