// Render results sized for a model: compact by default, every file's sha256 only when asked, and a manifest
// beside the output that lists every file with its size and sha256.
import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { colorRendererUrl, listDir } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { harness, type Harness } from './harness.js';

const sha = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

interface Item {
  status: string;
  frames: number;
  files: { first: string; last: string; count: number };
  bytes: number;
  manifest: string;
  sha256?: Record<string, string>;
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function run(id: string, params: object = {}): Promise<CallToolResult> {
  const r = (await h!.client.callTool({ name: 'command_run', arguments: { id, params } })) as CallToolResult;
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  return r;
}

/** A queue item of 300 small PNG frames (30 s at 10 fps, 32x18) in a fresh folder. */
async function queue300(): Promise<string> {
  h = await harness({ renderQueue: { rendererModule: colorRendererUrl, maxWorkers: 2 } });
  const dir = await tempDir('ec-results-');
  await run('comp.new', { name: 'c', width: 32, height: 18, frameRate: 10, duration: 30 });
  await run('layer.addSolid', { color: '#336699' });
  await run('renderQueue.add', { comp: 'c', output: join(dir, 'f_[###].png') });
  return dir;
}

describe('renderQueue.render results over MCP', () => {
  it('a 300-frame render answers in under 2 KB, with a manifest listing every file', async () => {
    const dir = await queue300();
    const r = await run('renderQueue.render');
    const size = Buffer.byteLength(JSON.stringify(r));
    expect(size).toBeLessThan(2048);
    const item = (r.structuredContent as { items: Item[] }).items[0]!;
    expect(item).not.toHaveProperty('sha256');
    expect(item).toMatchObject({
      status: 'done',
      frames: 300,
      files: { first: join(dir, 'f_000.png'), last: join(dir, 'f_299.png'), count: 300 },
      manifest: join(dir, 'f.png.manifest.json'),
    });
    // The manifest is beside the output and is not one of the item's files.
    const names = await listDir(dir);
    expect(names).toHaveLength(301);
    expect(names).toContain('f.png.manifest.json');

    const manifest = JSON.parse(await readFile(item.manifest, 'utf8')) as {
      kind: string;
      count: number;
      bytes: number;
      files: Array<{ path: string; bytes: number; sha256: string }>;
    };
    expect(manifest).toMatchObject({ kind: 'effectcraft-render-manifest/1', count: 300, bytes: item.bytes });
    expect(manifest.files.map((f) => f.path)).toEqual(
      Array.from({ length: 300 }, (_, i) => join(dir, `f_${String(i).padStart(3, '0')}.png`)),
    );
    for (const f of manifest.files) {
      expect(f.bytes).toBe((await stat(f.path)).size);
      expect(f.sha256).toBe(await sha(f.path));
    }
    expect(manifest.files.reduce((n, f) => n + f.bytes, 0)).toBe(item.bytes);
  }, 60_000);

  it('detail "files" lists every file with the sha256 of the file on disk', async () => {
    const dir = await queue300();
    const r = await run('renderQueue.render', { detail: 'files' });
    const item = (r.structuredContent as { items: Item[] }).items[0]!;
    const listed = Object.entries(item.sha256!);
    expect(listed).toHaveLength(300);
    for (const [path, sum] of listed) expect(sum).toBe(await sha(path));
    expect(listed.map(([p]) => p).sort()).toEqual(
      (await listDir(dir)).filter((n) => n.endsWith('.png')).map((n) => join(dir, n)),
    );
  }, 60_000);

  it('renderQueue.list names the manifest of a done item', async () => {
    const dir = await queue300();
    await run('renderQueue.render', { wait: true });
    const list = await run('renderQueue.list');
    expect((list.structuredContent as { items: object[] }).items[0]).toMatchObject({
      status: 'done',
      files: 300,
      manifest: join(dir, 'f.png.manifest.json'),
    });
  }, 60_000);

  it('renderQueue.list gives pages (300 queued items: 100, then on from next_offset) and filters by status', async () => {
    h = await harness({ renderQueue: { rendererModule: colorRendererUrl, maxWorkers: 2 } });
    const dir = await tempDir('ec-results-');
    await run('comp.new', { name: 'c', width: 32, height: 18, frameRate: 10, duration: 1 });
    const steps = Array.from({ length: 300 }, (_, i) => ({
      id: 'renderQueue.add',
      params: { comp: 'c', output: join(dir, `o${i}_[##].png`) },
    }));
    await h.client.callTool({ name: 'command_batch', arguments: { steps } });
    const first = (await run('renderQueue.list')).structuredContent as {
      items: Array<{ id: string }>;
      total: number;
      next_offset?: number;
    };
    expect(first.items).toHaveLength(100);
    expect(first).toMatchObject({ total: 300, next_offset: 100 });
    const last = (await run('renderQueue.list', { offset: 250 })).structuredContent as typeof first;
    expect(last.items).toHaveLength(50);
    expect(last).not.toHaveProperty('next_offset');
    expect(last.items[0]!.id).not.toBe(first.items[0]!.id);
    const all = (await run('renderQueue.list', { limit: 1000 })).structuredContent as typeof first;
    expect(all.items).toHaveLength(300);
    const none = (await run('renderQueue.list', { status: 'failed' })).structuredContent as typeof first;
    expect(none).toMatchObject({ items: [], total: 0 });
    const queued = (await run('renderQueue.list', { status: 'queued', limit: 5 }))
      .structuredContent as typeof first;
    expect(queued).toMatchObject({ total: 300, next_offset: 5 });
  });

  it('an unknown detail is a bad_argument', async () => {
    await queue300();
    const r = await h!.client.callTool({
      name: 'command_run',
      arguments: { id: 'renderQueue.render', params: { detail: 'all' } },
    });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ code: 'bad_argument' });
  });
});
