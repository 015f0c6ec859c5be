/**
 * doc_inspect on a large document: its layers in pages under 32 KB, every layer reached by following
 * next_offset; another composition in detail by `comp`; a small document whole, as before; the
 * effectcraft://document resource whole whatever its size.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { tone } from '../../helpers/audio.js';
import { describeWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Page = {
  activeComposition?: { name: string; layers: Array<{ id: string; name: string }> };
  composition?: { name: string; layers: Array<{ id: string }> };
  layersPage?: { offset: number; count: number; total: number; next_offset?: number };
  footagePage?: { offset: number; count: number; total: number; next_offset?: number };
  project?: { footage: Array<{ id: string }> };
  note?: string;
};

async function inspect(args: Record<string, unknown>): Promise<{ page: Page; bytes: number }> {
  const r = await h!.client.callTool({ name: 'doc_inspect', arguments: args });
  expect(r.isError).toBeFalsy();
  const text = (r.content as Array<{ type: string; text: string }>)[0]!.text;
  return { page: r.structuredContent as Page, bytes: Buffer.byteLength(text) };
}

async function run(id: string, params: Record<string, unknown>) {
  const r = await h!.client.callTool({ name: 'command_run', arguments: { id, params } });
  expect(r.isError).toBeFalsy();
  return r.structuredContent as { id: string };
}

describe('doc_inspect', () => {
  it('pages the layers of a 400-layer composition under 32 KB, and every layer is listed once', async () => {
    h = await harness();
    await run('comp.new', { name: 'Small', width: 64, height: 64, frameRate: 10, duration: 1 });
    await run('layer.addSolid', { color: '#ff0000', name: 'Only' });
    const small = await inspect({});
    expect(small.page.layersPage).toBeUndefined();
    expect(small.page.activeComposition!.layers.map((l) => l.name)).toEqual(['Only']);

    await run('comp.new', { name: 'Big', width: 64, height: 64, frameRate: 10, duration: 1 });
    const steps = Array.from({ length: 400 }, (_, i) => ({
      id: 'layer.addSolid',
      params: { color: '#336699', name: `Solid ${i}` },
    }));
    const batch = await h.client.callTool({ name: 'command_batch', arguments: { steps } });
    expect(batch.isError).toBeFalsy();
    const seen: string[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const { page, bytes } = await inspect(offset ? { offset } : {});
      expect(bytes).toBeLessThanOrEqual(32 * 1024);
      expect(page.layersPage).toMatchObject({ offset, total: 400 });
      seen.push(...page.activeComposition!.layers.map((l) => l.id));
      offset = page.layersPage!.next_offset;
      if (offset !== undefined) expect(page.note).toMatch(new RegExp(`offset: ${offset}`));
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(400);

    // Another composition in detail, the active one unchanged.
    const other = await inspect({ comp: 'Small' });
    expect(other.page.composition!.name).toBe('Small');
    expect(other.page.activeComposition).toBeUndefined();
    expect((await inspect({})).page.activeComposition!.name).toBe('Big');
  });

  it('reads the effectcraft://document resource whole: every layer, no page fields, where doc_inspect pages', async () => {
    h = await harness();
    await run('comp.new', { name: 'Big', width: 64, height: 64, frameRate: 10, duration: 1 });
    const steps = Array.from({ length: 300 }, (_, i) => ({
      id: 'layer.addSolid',
      params: { color: '#336699', name: `Solid ${i}` },
    }));
    expect((await h.client.callTool({ name: 'command_batch', arguments: { steps } })).isError).toBeFalsy();
    expect((await inspect({})).page.layersPage?.next_offset).toBeDefined();

    const read = await h.client.readResource({ uri: 'effectcraft://document' });
    const doc = JSON.parse((read.contents[0] as { text: string }).text) as Page;
    expect(doc.activeComposition!.layers).toHaveLength(300);
    expect(doc).not.toHaveProperty('layersPage');
    expect(doc).not.toHaveProperty('note');
  });
});

describeWithFfmpeg('doc_inspect with many footage items', () => {
  it('pages a project of 150 imported sounds under 32 KB (it was 59 KB whole), every item reached by footage_offset', async () => {
    h = await harness();
    const sound = await tone(await tempDir('ec-doc-footage-'), { freq: 440, seconds: 0.1 });
    await run('comp.new', { name: 'Main', width: 64, height: 64, frameRate: 10, duration: 1 });
    const steps = Array.from({ length: 150 }, () => ({ id: 'file.import', params: { path: sound } }));
    expect((await h.client.callTool({ name: 'command_batch', arguments: { steps } })).isError).toBeFalsy();
    const seen: string[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const { page, bytes } = await inspect(offset ? { footage_offset: offset } : {});
      expect(bytes).toBeLessThanOrEqual(32 * 1024);
      expect(page.footagePage).toMatchObject({ offset, total: 150 });
      seen.push(...page.project!.footage.map((f) => f.id));
      offset = page.footagePage!.next_offset;
      if (offset !== undefined) expect(page.note).toMatch(new RegExp(`footage_offset: ${offset}`));
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(150);
    // The composition is still there, whole.
    expect((await inspect({})).page.activeComposition!.name).toBe('Main');
  }, 120_000);
});
