/**
 * Another program replacing a render's files while it runs (most likely a second render of the same output,
 * in another process): the item still ends done (its files are what they are), but says which of its files no
 * longer hold what it wrote, where until 2026-12-07 it said nothing and its manifest listed hashes the files no
 * longer had. Replaced here by renaming a file over a committed frame, as another render's commit does.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src/render/queue/service.js';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

async function renderSequence(dir: string, replaceAt: number | null): Promise<JobResult> {
  const s = trackedSession();
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: 32,
    height: 32,
    frameRate: 10,
    duration: 3,
  });
  await run(s, 'layer.addSolid', { comp, color: '#336699' });
  await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[####].png') });
  let replaced = false;
  const off = s.renderQueue.onProgress((p) => {
    if (replaceAt === null || replaced || p.framesDone < replaceAt) return;
    replaced = true;
    // Another render's commit: its own file renamed over the frame's name.
    const theirs = join(dir, '.theirs.png');
    writeFileSync(theirs, 'another render');
    renameSync(theirs, join(dir, 'f_0000.png'));
  });
  return run<JobResult>(s, 'renderQueue.render', {}).finally(off);
}

describe('files replaced while their render runs', () => {
  it('ends done with a warning naming the replaced file', async () => {
    const dir = await tempDir();
    const job = await renderSequence(dir, 5);
    const [item] = job.items;
    expect(item!.status).toBe('done');
    const warning = (item!.warnings ?? []).find((w) => w.includes('replaced or removed by another program'));
    expect(warning).toBeDefined();
    expect(warning).toContain(`1 of the files this item wrote ("${join(dir, 'f_0000.png')}")`);
    expect(warning).toContain('Give each render its own output');
  });

  it('says nothing when its files are its own', async () => {
    const job = await renderSequence(await tempDir(), null);
    expect(job.items[0]!.status).toBe('done');
    expect(job.items[0]!.warnings ?? []).toEqual([]);
  });
});
