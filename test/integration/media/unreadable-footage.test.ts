/**
 * Footage that is there but cannot be read is unsupported_format, not no_such_file (whose remedy is to put the
 * file back): a still overwritten with bytes that are no image, and a sequence's frame file that is an MP4.
 * Previews show a placeholder with the same message; final renders and frame.save fail with it.
 */
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { sequenceFrame } from '../../../src/engine/index.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { numberedClip, numberedSequence } from '../../helpers/media.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

async function showing(path: string, extra: Record<string, unknown> = {}) {
  const s = trackedSession({ renderQueue: { maxWorkers: 1 } });
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: 64,
    height: 48,
    frameRate: 30,
    duration: 1,
  });
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path, ...extra });
  await run(s, 'layer.addFootage', { comp, footage });
  return { s, comp };
}

describeWithFfmpeg('footage that is there but is not readable', () => {
  itWithFfmpeg('a still that is no longer an image: unsupported_format', async () => {
    const dir = await tempDir();
    const pattern = await numberedSequence(dir, 2, 1);
    const still = join(dir, 'logo.png');
    await copyFile(sequenceFrame(pattern, 1), still);
    const { s, comp } = await showing(still);
    await writeFile(still, 'not an image at all');
    const saved = await s.engine.execute('frame.save', { comp, time: 0, path: join(dir, 'a.png') });
    expect(saved.ok ? null : saved.error.code).toBe('unsupported_format');
    const preview = await run<{ warnings: string[] }>(s, 'frame.preview', { comp, time: 0 });
    expect(preview.warnings.join(' ')).toMatch(/is not a readable image/);
  });

  itWithFfmpeg(
    "a sequence's frame file that is a video: the render fails unsupported_format naming it",
    async () => {
      const dir = await tempDir();
      const pattern = await numberedSequence(dir, 30, 1);
      const { s, comp } = await showing(pattern, { frameRate: 30 });
      const bad = sequenceFrame(pattern, 5);
      await copyFile(await numberedClip(dir, 'h264', '30', 2), bad);
      await run(s, 'renderQueue.add', { comp, output: join(dir, 'out', 'f_[##].png') });
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.failed).toBe(1);
      const error = job.items[0]!.error!;
      expect(error.code).toBe('unsupported_format');
      expect(error.message).toContain(bad);
    },
  );
});
