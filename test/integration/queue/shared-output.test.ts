/**
 * Two items of one render that write the same file: the later one would replace what the earlier one made a
 * moment before, and both would be reported done. The later item fails with bad_argument naming the file and
 * writes nothing; the earlier one's file is kept as it was. Frames of one sequence template that the items do
 * not share, and a later item that skips existing files, render as before.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src/render/queue/service.js';
import type { Session } from '../../../src/session.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { addComp, hashFiles, listDir, queueSession, run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

async function twoComps(): Promise<{ s: Session; a: string; b: string }> {
  const s = queueSession();
  const a = await addComp(s, { name: 'A', duration: 0.5 });
  const b = await addComp(s, { name: 'B', duration: 0.5 });
  await run(s, 'layer.addSolid', { comp: b, color: '#ff8800' });
  return { s, a, b };
}

describe('items of one render writing the same files', () => {
  itWithFfmpeg('the later of two items writing one video fails, and the first one is kept', async () => {
    const dir = await tempDir();
    const { s, a, b } = await twoComps();
    const output = join(dir, 'out.mp4');
    const first = await run<{ id: string }>(s, 'renderQueue.add', { comp: a, output });
    const second = await run<{ id: string }>(s, 'renderQueue.add', { comp: b, output });
    const job = await run<JobResult>(s, 'renderQueue.render', {});
    expect(job.items.map((i) => [i.id, i.status])).toEqual([
      [first.id, 'done'],
      [second.id, 'failed'],
    ]);
    const error = job.items[1]!.error!;
    expect(error.code).toBe('bad_argument');
    expect(error.message).toContain(output);
    expect(error.remediation).toContain('renderQueue.update');
    // Only the first item's video and its manifest: the second wrote nothing, not even a temporary.
    const files = await hashFiles(dir);
    expect(Object.keys(files)).toEqual(await listDir(dir));
    expect(Object.keys(files).filter((f) => !f.endsWith('.json'))).toEqual(['out.mp4']);
    const firstManifest = job.items[0]!.manifest!;
    expect(firstManifest).toBeTruthy();

    // Rendered again on its own, the second item writes the file, as a new render of it would.
    await run(s, 'renderQueue.remove', { id: first.id });
    const again = await run<JobResult>(s, 'renderQueue.render', {});
    expect(again.completed).toBe(1);
    expect((await hashFiles(dir))['out.mp4']).not.toBe(files['out.mp4']);
  });

  it('sequence items sharing frames: the later fails; frames they do not share, or skipped, render', async () => {
    const dir = await tempDir();
    const { s, a, b } = await twoComps();
    const output = join(dir, 'f_[##].png');
    await run(s, 'renderQueue.add', { comp: a, output, frameRange: { start: 0, end: 2 } });
    await run(s, 'renderQueue.add', { comp: b, output, frameRange: { start: 2, end: 4 } });
    const job = await run<JobResult>(s, 'renderQueue.render', {});
    expect(job.items.map((i) => i.status)).toEqual(['done', 'failed']);
    expect(job.items[1]!.error!.message).toContain(join(dir, 'f_02.png'));
    const afterFirst = await hashFiles(dir);
    expect(Object.keys(afterFirst).filter((f) => f.endsWith('.png'))).toEqual([
      'f_00.png',
      'f_01.png',
      'f_02.png',
    ]);

    // Frames 3-4 share nothing with 0-2; a later item that skips existing files leaves them as they are.
    await run(s, 'renderQueue.clear', {});
    await run(s, 'renderQueue.add', { comp: a, output, frameRange: { start: 0, end: 2 } });
    await run(s, 'renderQueue.add', { comp: b, output, frameRange: { start: 3, end: 4 } });
    await run(s, 'renderQueue.add', {
      comp: b,
      output,
      frameRange: { start: 0, end: 4 },
      skipExisting: true,
    });
    const next = await run<JobResult>(s, 'renderQueue.render', {});
    expect(next.items.map((i) => i.status)).toEqual(['done', 'done', 'done']);
    expect(next.items[2]!.skipped_frames).toBe(5);
    const pngs = Object.entries(await hashFiles(dir)).filter(([f]) => f.endsWith('.png'));
    expect(pngs.map(([f]) => f)).toEqual(['f_00.png', 'f_01.png', 'f_02.png', 'f_03.png', 'f_04.png']);
    // Frames 0-2 are comp A's, as the first render made them; 3-4 are B's.
    for (const f of ['f_00.png', 'f_01.png', 'f_02.png']) expect(afterFirst[f]).toBeDefined();
    expect(new Set(pngs.map(([, h]) => h)).size).toBeGreaterThan(1);
  });

  it('the later of two items reaching one file through a linked folder fails too, for a sequence as well', async () => {
    // Paths that differ as spelt: both items ended done, the second's file in place of the first's.
    const dir = await tempDir();
    await mkdir(join(dir, 'out'));
    await symlink(join(dir, 'out'), join(dir, 'linked'));
    const { s, a, b } = await twoComps();
    await run(s, 'renderQueue.add', { comp: a, output: join(dir, 'out', 'f_[##].png') });
    await run(s, 'renderQueue.add', { comp: b, output: join(dir, 'linked', 'f_[##].png') });
    const job = await run<JobResult>(s, 'renderQueue.render', { detail: 'files' });
    expect(job.items.map((i) => i.status)).toEqual(['done', 'failed']);
    expect(job.items[1]!.error!.code).toBe('bad_argument');
    expect(job.items[1]!.error!.message).toContain(join(dir, 'out', 'f_00.png'));
    // The first item's frames are there as it wrote them.
    const files = await hashFiles(join(dir, 'out'));
    const firsts = Object.entries(job.items[0]!.sha256!);
    expect(firsts).toHaveLength(5);
    for (const [path, sum] of firsts) expect(files[path.slice(join(dir, 'out').length + 1)]).toBe(sum);
  });
});
