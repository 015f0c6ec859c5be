// What a render worker loads before its first frame: sharp (libvips) only for the formats that encode with it.
// This test file runs in a process of its own (vitest's forks pool), so the process's mapped libraries are
// those its renders loaded.
import { describe, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { createSession } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';

/** Whether libvips (sharp's native library) is mapped into this process: loaded by any thread. */
function vipsLoaded(): boolean {
  return /libvips/.test(readFileSync('/proc/self/maps', 'utf8'));
}

describe('render worker startup', () => {
  itWithFfmpeg(
    'an MP4 render never loads sharp; a PNG sequence loads it in its workers, one thread',
    async () => {
      const dir = await tempDir();
      const s = createSession({ renderQueue: { maxWorkers: 2 } });
      const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
        name: 'c',
        width: 64,
        height: 36,
        frameRate: 10,
        duration: 0.5,
      });
      await run(s, 'layer.addSolid', { comp, color: '#3366cc' });
      expect(vipsLoaded()).toBe(false);

      const { id: video } = await run<{ id: string }>(s, 'renderQueue.add', {
        comp,
        output: join(dir, 'c.mp4'),
      });
      const mp4 = await run<JobResult>(s, 'renderQueue.render', { items: [video] });
      expect(mp4.items[0]!.status).toBe('done');
      expect(vipsLoaded()).toBe(false);

      const { id: pngs } = await run<{ id: string }>(s, 'renderQueue.add', {
        comp,
        output: join(dir, 'c_[##].png'),
      });
      const png = await run<JobResult>(s, 'renderQueue.render', { items: [pngs] });
      expect(png.items[0]).toMatchObject({ status: 'done', frames: 5 });
      expect(vipsLoaded()).toBe(true);
      // libvips' thread count is process-wide: the workers set it to one when they loaded sharp.
      const { default: sharp } = await import('sharp');
      expect(sharp.concurrency()).toBe(1);
    },
  );
});
