// command_list within a model's budget: pages under 16 KB that together list every command exactly once,
// and filters by category, text and ids.
import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { harness, type Harness } from './harness.js';

interface Page {
  count: number;
  total: number;
  offset: number;
  commands: Array<{ id: string; category: string; params?: unknown }>;
  next_offset?: number;
  note?: string;
  unknown_ids?: string[];
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function list(
  args: Record<string, unknown>,
): Promise<{ page: Page; bytes: number; result: CallToolResult }> {
  const result = (await h!.client.callTool({ name: 'command_list', arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  const text = (result.content[0] as { text: string }).text;
  return { page: result.structuredContent as unknown as Page, bytes: Buffer.byteLength(text), result };
}

/** Follows next_offset from the first page to the last. */
async function allPages(args: Record<string, unknown>): Promise<Array<{ page: Page; bytes: number }>> {
  const pages = [await list(args)];
  while (pages.at(-1)!.page.next_offset !== undefined) {
    const next = pages.at(-1)!.page.next_offset!;
    expect(pages.length).toBeLessThan(50);
    pages.push(await list({ ...args, offset: next }));
  }
  return pages;
}

describe('command_list pages', () => {
  it('with every schema, pages under 16 KB that list each command exactly once', async () => {
    h = await harness();
    const every = await h.backend.list({});
    const pages = await allPages({ schemas: true });
    expect(pages.length).toBeGreaterThan(1);
    for (const { page, bytes } of pages) {
      expect(bytes).toBeLessThan(16 * 1024);
      expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThan(16 * 1024);
      expect(page.count).toBe(page.commands.length);
      expect(page.total).toBe(every.length);
      expect(page.commands.every((c) => typeof c.params === 'object')).toBe(true);
    }
    // The pointer names the next page and how to ask for it.
    expect(pages[0]!.page.note).toContain(`offset: ${pages[0]!.page.next_offset}`);
    expect(pages.at(-1)!.page).not.toHaveProperty('note');
    const ids = pages.flatMap(({ page }) => page.commands.map((c) => c.id));
    expect(ids).toEqual(every.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a small result is one page without a pointer', async () => {
    h = await harness();
    const { page } = await list({ filter: 'comp.new', schemas: true });
    expect(page).toMatchObject({ offset: 0, count: page.total });
    expect(page).not.toHaveProperty('next_offset');
  });

  it('category lists that category only (any case), and an unknown one names the categories', async () => {
    h = await harness();
    const { page } = await list({ category: 'layer' });
    expect(page.commands.length).toBeGreaterThan(5);
    expect(page.commands.every((c) => c.category === 'Layer')).toBe(true);
    expect(page.commands.map((c) => c.id)).toContain('layer.addText');
    expect(page.commands.some((c) => 'params' in c)).toBe(false);

    const wrong = await h.client.callTool({ name: 'command_list', arguments: { category: 'Layers' } });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toMatchObject({ code: 'bad_argument' });
    expect((wrong.structuredContent as { remediation: string }).remediation).toContain('Layer');
  });

  it('filter matches text in id, title or description; ids picks commands, with their schemas only', async () => {
    h = await harness();
    const { page } = await list({ filter: 'keyframe' });
    const ids = page.commands.map((c) => c.id);
    expect(ids).toContain('property.setKeyframe');
    for (const c of await h.backend.list({ filter: 'keyframe' })) expect(ids).toContain(c.id);
    expect(ids).not.toContain('comp.new');

    const picked = await list({ ids: ['property.set', 'layer.addText'], schemas: true });
    expect(picked.page.commands.map((c) => c.id).sort()).toEqual(['layer.addText', 'property.set']);
    expect(picked.page.commands.every((c) => typeof c.params === 'object')).toBe(true);
    expect(picked.page).not.toHaveProperty('unknown_ids');
  });

  it('ids that no command has are named, with the commands they may have meant', async () => {
    h = await harness();
    const { page } = await list({ ids: ['property.set', 'layer.addTxt', 'nosuch.thing'] });
    expect(page.commands.map((c) => c.id)).toEqual(['property.set']);
    expect(page.unknown_ids).toEqual(['layer.addTxt', 'nosuch.thing']);
    // A typo gets its namespace's commands as suggestions; the note says how to find the id.
    expect(page.note).toMatch(/"layer\.addTxt" \(similar: [^)]*layer\.addText/);
    expect(page.note).toContain('"nosuch.thing"');
    expect(page.note).toContain('without ids');
  });
});
