import { describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { listDir } from '../../helpers/queue.js';
import { FileTracker, KeptAside } from '../../../src/render/queue/tracker.js';
import { dropKept, undoChunk } from '../../../src/render/distributed/kept.js';
import type { ChunkResult } from '../../../src/render/distributed/protocol.js';

/** A chunk's report of the files `t` wrote, with what `keep` kept. */
const chunkOf = (paths: string[], keep: KeptAside): ChunkResult => ({
  start: 0,
  frames: paths.length,
  skipped: 0,
  files: paths.map((path) => ({ path, bytes: 1, sha256: '' })),
  kept: keep.files,
});

/**
 * DIR/a.png held "old"; a first delivery of a chunk replaced it and was killed before it reported anything;
 * a second delivery has just written it again. The second delivery's tracker and keeper.
 */
async function deliveredTwice(dir: string): Promise<{ second: FileTracker; keep: KeptAside }> {
  await writeFile(join(dir, 'a.png'), 'old');
  const first = new FileTracker(undefined, new KeptAside('abcd1234'));
  await first.writeFile(join(dir, 'a.png'), Buffer.from('new'));
  const keep = new KeptAside('abcd1234');
  const second = new FileTracker(undefined, keep);
  await second.writeFile(join(dir, 'a.png'), Buffer.from('new'));
  return { second, keep };
}

/** A chunk completed: it replaced DIR/a.png ("old") and wrote DIR/b.png (new), both "new". */
async function chunkCompleted(): Promise<{ dir: string; keep: KeptAside }> {
  const dir = await tempDir();
  await writeFile(join(dir, 'a.png'), 'old');
  const keep = new KeptAside('abcd1234');
  const t = new FileTracker(undefined, keep);
  await t.writeFile(join(dir, 'a.png'), Buffer.from('new'));
  await t.writeFile(join(dir, 'b.png'), Buffer.from('new'));
  await t.release();
  return { dir, keep };
}

describe('FileTracker with a KeptAside (a distributed chunk)', () => {
  it('on completion hands over the earlier files under deterministic hidden names instead of deleting them', async () => {
    const { dir, keep } = await chunkCompleted();
    expect(keep.files).toEqual([{ path: join(dir, 'a.png'), aside: join(dir, '.a.png.abcd1234.prev') }]);
    expect(await readFile(join(dir, '.a.png.abcd1234.prev'), 'utf8')).toBe('old');
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('new');
    // The render is stopped: the earlier a.png comes back, b.png (which replaced nothing) goes.
    await undoChunk(chunkOf([join(dir, 'a.png'), join(dir, 'b.png')], keep));
    expect(await listDir(dir)).toEqual(['a.png']);
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('old');
  });

  it("delivered twice, the second delivery adopts the earlier file the first kept, never the first delivery's new one", async () => {
    const dir = await tempDir();
    const { second, keep } = await deliveredTwice(dir);
    await second.release();
    expect(await readFile(keep.files[0]!.aside, 'utf8')).toBe('old');
    // Stopped: put back, twice (a stop racing a failure), and the earlier file is there once.
    await undoChunk(chunkOf([join(dir, 'a.png')], keep));
    await undoChunk(chunkOf([join(dir, 'a.png')], keep));
    expect(await listDir(dir)).toEqual(['a.png']);
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('old');
  });

  it('a second delivery stopped mid-chunk puts back the earlier file the first one kept', async () => {
    const dir = await tempDir();
    const { second } = await deliveredTwice(dir);
    await second.removeAll();
    expect(await listDir(dir)).toEqual(['a.png']);
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('old');
  });

  it('dropKept deletes the kept files once the item is complete (twice is harmless)', async () => {
    const { dir, keep } = await chunkCompleted();
    const chunk = chunkOf([join(dir, 'a.png'), join(dir, 'b.png')], keep);
    await dropKept([chunk]);
    await dropKept([chunk]);
    expect(await listDir(dir)).toEqual(['a.png', 'b.png']);
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('new');
  });
});
