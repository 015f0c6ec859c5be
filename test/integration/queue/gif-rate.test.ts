// GIF frame delays are whole 1/100 s, and browsers (and ffmpeg's GIF demuxer) play a delay under 2/100 s as
// 1/10 s. A 60 fps composition's GIF had 41 of its 120 delays at 1/100 s and played 2 s of animation in 5.68 s;
// now a composition above 50 fps keeps every k-th frame (60 -> 30 fps), so every delay is at least 2/100 s and
// the GIF lasts what the composition does. Rates up to 50 fps keep every frame. The last frame's delay ends it
// where the clip ends: a 2 s 30 fps GIF lasted 2.01 s (its last delay 4/100 s where 3 were left).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { createSession } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

/** The delay of every frame, in 1/100 s, read from the file's Graphic Control Extensions. */
async function gifDelays(path: string): Promise<number[]> {
  const bytes = await readFile(path);
  const delays: number[] = [];
  for (let i = bytes.indexOf('21f904', 0, 'hex'); i !== -1; i = bytes.indexOf('21f904', i + 8, 'hex'))
    delays.push(bytes.readUInt16LE(i + 4));
  return delays;
}

describe('GIF frame rates', () => {
  itWithFfmpeg.each([
    // [fps, alpha, frames in the GIF]
    [60, false, 60],
    [60, true, 60],
    [120, false, 80],
    [50, false, 100],
    [24, false, 48],
    [30, false, 60],
    [29.97, false, 60],
  ])(
    'a 2 s %s fps composition (alpha %s) plays 2 s as a GIF of %s frames',
    async (frameRate, alpha, frames) => {
      const dir = await tempDir();
      const s = createSession();
      const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
        name: 'Rate',
        width: 32,
        height: 18,
        frameRate,
        duration: 2,
      });
      const { id: layer } = await run<{ id: string }>(s, 'layer.addSolid', {
        comp,
        color: '#336699',
        width: 16,
        height: 18,
      });
      // A picture that changes every frame: ffmpeg times a run of identical frames otherwise.
      for (const [time, x] of [
        [0, 0],
        [2, 32],
      ] as const)
        await run(s, 'property.setKeyframe', {
          comp,
          layer,
          property: 'transform.position',
          time,
          value: [x, 9],
        });
      const output = join(dir, 'r.gif');
      const added = await s.engine.execute('renderQueue.add', { comp, output, alpha });
      expect(added.ok).toBe(true);
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.items.map((i) => i.status)).toEqual(['done']);
      const delays = await gifDelays(output);
      expect(delays).toHaveLength(frames);
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(2);
      // 2 s (29.97 fps: 60 frames are 2.002 s): the last frame ends where the clip does, not a rounding later.
      expect(delays.reduce((a, b) => a + b, 0)).toBe(200);
      // renderQueue.add said so before anything rendered.
      const warned = (added.ok && added.warnings?.join('\n')) || '';
      if (frameRate > 50) expect(warned).toMatch(/GIF delays are whole 1\/100 s/);
      else expect(warned).toBe('');
    },
  );
});
