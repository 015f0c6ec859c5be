// The render manifest: its name beside the output, and the item's exact cleanup covering it.
import { describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { manifestPathFor } from '../../../src/render/queue/manifest.js';
import { addComp, hashFiles, listDir, queueSession, renderStoppedAt, run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import type { JobResult } from '../../../src/render/queue/service.js';

describe('manifestPathFor', () => {
  it.each([
    ['/out/shot_[#####].png', '/out/shot.png.manifest.json'],
    ['/out/shot.[###].exr', '/out/shot.exr.manifest.json'],
    ['/out/shot[###].png', '/out/shot.png.manifest.json'],
    ['/out/[####].png', '/out/frames.png.manifest.json'],
    ['/out/clip.mp4', '/out/clip.mp4.manifest.json'],
    // Hidden by itself, not by a removed frame field: its own name (frames.take.mp4 is another output's).
    ['/out/.take.mp4', '/out/.take.mp4.manifest.json'],
  ])('%s -> %s', (output, expected) => {
    expect(manifestPathFor(output)).toBe(expected);
  });
});

describe('one manifest per output', () => {
  it("refuses an item whose manifest would replace an earlier item's in the same render", async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c', duration: 0.3 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'a_[##].png') });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'a.[##].png') });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.items.map((i) => i.status)).toEqual(['done', 'failed']);
    expect(r.items[1]!.error).toMatchObject({ code: 'bad_argument' });
    expect(r.items[1]!.error!.message).toContain(join(dir, 'a.png.manifest.json'));
    // The first item's manifest lists its own frames, and nothing of the second was written.
    const manifest = JSON.parse(await readFile(join(dir, 'a.png.manifest.json'), 'utf8')) as {
      files: Array<{ path: string }>;
    };
    expect(manifest.files.map((f) => f.path)).toEqual([
      join(dir, 'a_00.png'),
      join(dir, 'a_01.png'),
      join(dir, 'a_02.png'),
    ]);
    expect(await listDir(dir)).toEqual(['a.png.manifest.json', 'a_00.png', 'a_01.png', 'a_02.png']);
  });
});

describe('the manifest on the item cleanup list', () => {
  it('a stopped render leaves no manifest, and puts back the one it replaced', async () => {
    const dir = await tempDir();
    const s = queueSession({ maxWorkers: 1 });
    const comp = await addComp(s, { name: 'c', duration: 10 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[###].png') });
    const first = await run<JobResult>(s, 'renderQueue.render', {});
    expect(first.items[0]!.manifest).toBe(join(dir, 'f.png.manifest.json'));
    // Mark the earlier manifest, so putting it back is told apart from writing it again.
    await writeFile(join(dir, 'f.png.manifest.json'), '{"earlier": true}\n');
    const before = await hashFiles(dir);

    const stopped = await renderStoppedAt(s, 20);
    expect(stopped.items[0]).toMatchObject({ status: 'stopped', manifest: null });
    expect(await hashFiles(dir)).toEqual(before);
  });

  it('an item that wrote nothing (all frames skipped) keeps the earlier manifest', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c' });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[###].png') });
    const first = await run<JobResult>(s, 'renderQueue.render', {});
    const earlier = await readFile(first.items[0]!.manifest!, 'utf8');
    const again = await run<JobResult>(s, 'renderQueue.render', { resume: true });
    expect(again.items[0]).toMatchObject({ status: 'done', skipped_frames: 10, manifest: null });
    expect(await readFile(first.items[0]!.manifest!, 'utf8')).toBe(earlier);
    expect(await listDir(dir)).toHaveLength(11);
  });
});
