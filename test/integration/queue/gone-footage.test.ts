/** Footage gone when a render starts: two or more files gone are named in one error, not one per render. */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createSession } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip } from '../../helpers/media.js';
import { tone } from '../../helpers/audio.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

describeWithFfmpeg('footage gone at render time', () => {
  itWithFfmpeg(
    'names every gone file (a clip and a voice-over) in one no_such_file; one gone names itself',
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '24', 12);
      const voice = await tone(dir, { freq: 440, seconds: 1 });
      const s = createSession({ renderQueue: { maxWorkers: 1 } });
      await run(s, 'comp.new', { name: 'C', width: 64, height: 48, frameRate: 24, duration: 0.5 });
      await run(s, 'file.import', { path: clip, name: 'Interview' });
      await run(s, 'file.import', { path: voice, name: 'Voice' });
      await run(s, 'layer.addFootage', { footage: 'Interview' });
      await run(s, 'layer.addFootage', { footage: 'Voice' });
      await run(s, 'renderQueue.add', { comp: 'C', output: join(dir, 'out.mp4') });
      await unlink(voice);
      const one = await run<JobResult>(s, 'renderQueue.render', {});
      expect(one.items[0]!.error?.message).not.toMatch(/footage files this render reads are gone/);
      expect(one.items[0]!.error?.message).toContain(voice);
      await unlink(clip);
      const both = await run<JobResult>(s, 'renderQueue.render', {});
      expect(both.items[0]).toMatchObject({ status: 'failed', error: { code: 'no_such_file' } });
      expect(both.items[0]!.error!.message).toMatch(/^2 footage files this render reads are gone: /);
      expect(both.items[0]!.error!.message).toContain(`"Interview"`);
      expect(both.items[0]!.error!.message).toContain(`"Voice"`);
      expect(both.items[0]!.error!.remediation).toMatch(/footage\.relink/);
    },
  );
});
