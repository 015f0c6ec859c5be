/**
 * Outputs that cannot be written are refused in their own words, before any frame is rendered: a folder
 * where a one-file output goes (bad_argument, not a rename failure naming the temporary after the render),
 * and a path under a file (not "no such file or directory").
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { JobResult } from '../../../src/render/queue/service.js';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

async function renderTo(output: string): Promise<{ job: JobResult; frames: number }> {
  const s = trackedSession();
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: 32,
    height: 32,
    frameRate: 10,
    duration: 1,
  });
  await run(s, 'layer.addSolid', { comp, color: '#336699' });
  await run(s, 'renderQueue.add', { comp, output });
  let frames = 0;
  const off = s.renderQueue.onProgress((p) => (frames = Math.max(frames, p.framesDone)));
  const job = await run<JobResult>(s, 'renderQueue.render', {}).finally(off);
  return { job, frames };
}

describeWithFfmpeg('outputs that cannot be written', () => {
  itWithFfmpeg.each(['mp4', 'gif', 'wav'])(
    'a folder named as the %s output is refused first',
    async (ext) => {
      const dir = await tempDir();
      const output = join(dir, `clip.${ext}`);
      await mkdir(output);
      const { job, frames } = await renderTo(output);
      expect(job.items[0]?.error?.code).toBe('bad_argument');
      expect(job.items[0]?.error?.message).toBe(
        `Cannot write "${output}": it is a folder, and the ${ext} output is one file.`,
      );
      expect(frames).toBe(0);
      expect(await readdir(dir)).toEqual([`clip.${ext}`]);
      expect(await readdir(output)).toEqual([]);
    },
  );

  itWithFfmpeg('a path under a file says that part is a file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'notes.txt'), 'a file');
    const output = join(dir, 'notes.txt', 'clip.mp4');
    const { job } = await renderTo(output);
    expect(job.items[0]?.error?.message).toMatch(/a part of the path is a file where a folder should be/);
  });
});
