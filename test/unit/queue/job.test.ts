import { describe, expect, it } from 'vitest';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, failCode, listDir, queueSession, run } from '../../helpers/queue.js';
import { frameColor } from '../../helpers/color-renderer.mjs';
import sharp from 'sharp';
import type { JobResult } from '../../../src/render/queue/service.js';

type Started = { started: boolean; ids: string[] };

async function firstPixel(path: string): Promise<number[]> {
  const { data } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}

describe('render job', () => {
  it('refuses a second render while one runs: blocking, wait:false and inside a group; renders again after', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'slow', duration: 2 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'a_[###].png') });
    const started = await run<Started>(s, 'renderQueue.render', { wait: false });
    expect(started.started).toBe(true);
    expect(await failCode(s, 'renderQueue.render', {})).toBe('render_in_progress');
    expect(await failCode(s, 'renderQueue.render', { wait: false })).toBe('render_in_progress');
    let inGroup = '';
    await s.engine.group('batch', async (group) => {
      const r = await s.engine.execute('renderQueue.render', { wait: false }, { group });
      inGroup = r.ok ? 'ok' : r.error.code;
      return r.ok;
    });
    expect(inGroup).toBe('render_in_progress');
    // renderQueue.list polls the live status while the job runs.
    await new Promise<void>((resolve) => {
      const off = s.renderQueue.onProgress((p) => p.framesDone >= 5 && (off(), resolve()));
    });
    const list = await run<{
      items: Array<{ status: string; framesDone: number; framesTotal: number; files: number }>;
    }>(s, 'renderQueue.list');
    expect(list.items[0]).toMatchObject({ status: 'rendering', framesTotal: 20 });
    expect(list.items[0]!.framesDone).toBeGreaterThanOrEqual(5);
    expect(list.items[0]!.files).toBeGreaterThanOrEqual(5);
    await s.renderQueue.idle();
    const again = await run<JobResult>(s, 'renderQueue.render', {});
    expect(again.completed).toBe(1);
  });

  it('renders the snapshot: edits and layer deletions during the render do not reach the output', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'slow', layers: 3, duration: 2 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[##].png') });
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    await new Promise((r) => setTimeout(r, 150));
    const layers = (s.engine.document.items.find((i) => i.id === comp) as { layers: Array<{ id: string }> })
      .layers;
    await run(s, 'layer.delete', { comp, layer: layers[0]!.id });
    await run(s, 'layer.delete', { comp, layer: layers[1]!.id });
    await run(s, 'comp.setSettings', { comp, width: 8 });
    const r = await job;
    expect(r.ok && r.result.completed).toBe(1);
    for (const f of [0, 10, 19]) {
      const path = join(dir, `f_${String(f).padStart(2, '0')}.png`);
      expect(await firstPixel(path)).toEqual(frameColor(f, 3).slice(0, 3));
      expect((await sharp(path).metadata()).width).toBe(32);
    }
  });

  it('leaves an item removed mid-render out of the result and counts it as failed', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'slow' });
    const a = await run<{ id: string }>(s, 'renderQueue.add', { comp, output: join(dir, 'a_[##].png') });
    const b = await run<{ id: string }>(s, 'renderQueue.add', { comp, output: join(dir, 'b_[##].png') });
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    await new Promise((r) => setTimeout(r, 60));
    await run(s, 'renderQueue.remove', { id: b.id });
    const r = await job;
    if (!r.ok) throw new Error(r.error.code);
    expect(r.result.items.map((i) => i.id)).toEqual([a.id]);
    expect(r.result.completed).toBe(1);
    expect(r.result.failed).toBe(1);
  });

  it('stop removes exactly the unfinished item files, keeps finished items and skipped frames', async () => {
    const dir = await tempDir();
    const over = await tempDir();
    const s = queueSession();
    const quick = await addComp(s, { name: 'quick' });
    const slow = await addComp(s, { name: 'slow', duration: 4 });
    await run(s, 'renderQueue.add', { comp: quick, output: join(dir, 'done_[##].png') });
    // A huge minimum free space moves the sequence to the overflow folder after the first frames exist there.
    await run(s, 'renderQueue.add', {
      comp: slow,
      output: join(dir, 's_[##].png'),
      skipExisting: true,
      overflow: [{ dir: over, minFreeBytes: 2 ** 50 }],
    });
    await writeFile(join(dir, 's_05.png'), 'kept-main');
    await writeFile(join(over, 's_06.png'), 'kept-over');
    await writeFile(join(dir, 'unrelated_01.png.part'), 'not ours');
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    const off = s.renderQueue.onProgress((p) => {
      if (p.itemsDone === 1 && p.framesDone >= 12) void s.engine.execute('renderQueue.stop', {});
    });
    const r = await job;
    off();
    if (!r.ok) throw new Error(r.error.code);
    expect(r.result.completed).toBe(1);
    expect(r.result.stopped).toBe(1);
    expect(r.result.items[1]!.status).toBe('stopped');
    const done = Array.from({ length: 10 }, (_, i) => `done_0${i}.png`);
    // The stopped item's manifest is never written: only the done item's is there.
    expect(await listDir(dir)).toEqual(
      [...done, 'done.png.manifest.json', 's_05.png', 'unrelated_01.png.part'].sort(),
    );
    expect(await listDir(over)).toEqual(['s_06.png']);
    expect(await readFile(join(dir, 's_05.png'), 'utf8')).toBe('kept-main');
    const list = await run<{ items: Array<{ status: string }> }>(s, 'renderQueue.list');
    expect(list.items.map((i) => i.status)).toEqual(['done', 'stopped']);
  });

  it('cancels a blocking render through the AbortSignal', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'slow', duration: 3 });
    // Folders the job creates are removed again on cleanup (they are empty then).
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'new', 'deeper', 'c_[##].png') });
    const controller = new AbortController();
    const off = s.renderQueue.onProgress((p) => p.framesDone >= 3 && controller.abort());
    const r = await s.engine.execute<JobResult>('renderQueue.render', {}, { signal: controller.signal });
    off();
    if (!r.ok) throw new Error(r.error.code);
    expect(controller.signal.aborted).toBe(true);
    expect(r.result.items[0]!.status).toBe('stopped');
    expect(await listDir(dir)).toEqual([]);
    expect(s.renderQueue.running).toBe(false);
    // The list tells how far it got (at least the 3 frames seen), and that it kept no file.
    type List = { items: Array<{ framesDone: number; framesTotal: number; files: number }> };
    const [item] = (await run<List>(s, 'renderQueue.list')).items;
    expect(item!.framesDone).toBeGreaterThanOrEqual(3);
    expect(item!.framesDone).toBeLessThan(item!.framesTotal);
    expect(item!.files).toBe(0);
  });

  it('skipExisting neither renders nor touches an existing frame on any volume', async () => {
    const dir = await tempDir();
    const over = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c' });
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'k_[##].png'),
      skipExisting: true,
      overflow: [{ dir: over, minFreeBytes: 0 }],
    });
    await writeFile(join(dir, 'k_02.png'), 'old');
    await writeFile(join(over, 'k_03.png'), 'old-over');
    const before = await stat(join(dir, 'k_02.png'));
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.skipped_frames).toBe(2);
    expect(r.items[0]!.frames).toBe(8);
    expect((await stat(join(dir, 'k_02.png'))).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(join(over, 'k_03.png'), 'utf8')).toBe('old-over');
    expect(await listDir(over)).toEqual(['k_03.png']);
  });

  it('honours frameRange and scale', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c', width: 40, height: 20 });
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'r_[##].png'),
      frameRange: { start: 3, end: 5 },
      scale: 0.5,
    });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.items[0]!.frames).toBe(3);
    expect(await listDir(dir)).toEqual(['r.png.manifest.json', 'r_03.png', 'r_04.png', 'r_05.png']);
    const meta = await sharp(join(dir, 'r_04.png')).metadata();
    expect([meta.width, meta.height]).toEqual([20, 10]);
  });

  it('reports strictly increasing progress with total = number of items', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c' });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'a_[##].png') });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'b_[##].png') });
    const seen: Array<{ progress: number; total?: number }> = [];
    const r = await s.engine.execute('renderQueue.render', {}, { onProgress: (p) => seen.push(p) });
    expect(r.ok).toBe(true);
    expect(seen.length).toBeGreaterThan(2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    expect(seen.every((p) => p.total === 2)).toBe(true);
    expect(seen.at(-1)!.progress).toBeLessThanOrEqual(2);
  });

  it('declares the files it writes and reads for confinement', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'o'));
    const s = queueSession();
    const comp = await addComp(s, { name: 'c' });
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'x_[##].png'),
      overflow: [{ dir: join(dir, 'o') }],
    });
    const cmd = s.engine.command('renderQueue.render')!;
    expect(cmd.mutates).toBe(false);
    expect(cmd.writesFiles!(s.engine.view, {})).toEqual([join(dir, 'x_[##].png'), join(dir, 'o')]);
    expect(cmd.readsFiles!(s.engine.view, {})).toEqual([]);
  });

  it('reads footage through the ports, declares it, and fails the item with no_such_file when it is gone', async () => {
    const dir = await tempDir();
    const logo = join(dir, 'logo.png');
    await sharp({ create: { width: 4, height: 4, channels: 4, background: '#ff0000' } })
      .png()
      .toFile(logo);
    const s = queueSession();
    const comp = await addComp(s, { name: 'c' });
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: logo });
    await run(s, 'layer.addFootage', { comp, footage });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'out', 'f_[##].png') });
    expect(s.engine.command('renderQueue.render')!.readsFiles!(s.engine.view, {})).toEqual([logo]);
    await rm(logo);
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'no_such_file' } });
    expect(await listDir(dir)).toEqual([]);
  });
});

describe('frames total of items that have not started', () => {
  it('is their frame count while queued behind a render and after a stop before their turn, as before the render', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'slow', duration: 2 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'a_[###].png') });
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'b_[###].png'),
      frameRange: { start: 3, end: 9 },
    });
    type List = { items: Array<{ status: string; framesTotal: number }> };
    const before = await run<List>(s, 'renderQueue.list');
    expect(before.items.map((i) => [i.status, i.framesTotal])).toEqual([
      ['queued', 20],
      ['queued', 7],
    ]);
    await run(s, 'renderQueue.render', { wait: false });
    await new Promise<void>((resolve) => {
      const off = s.renderQueue.onProgress((p) => p.framesDone >= 2 && (off(), resolve()));
    });
    const during = await run<List>(s, 'renderQueue.list');
    expect(during.items[1]).toMatchObject({ status: 'queued', framesTotal: 7 });
    await run(s, 'renderQueue.stop');
    await s.renderQueue.idle();
    const after = await run<List>(s, 'renderQueue.list');
    expect(after.items.map((i) => [i.status, i.framesTotal])).toEqual([
      ['stopped', 20],
      ['stopped', 7],
    ]);
  });
});
