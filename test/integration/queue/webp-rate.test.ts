// Animated WebP delays are whole milliseconds, and Chrome and Firefox play any animated image's delay of 10 ms
// or less as 100 ms. A 1 s 120 fps composition's WebP had delays of 8 and 9 ms and played for 12 s; now a
// composition above 90 fps keeps every k-th frame (120 -> 60, 100 -> 50), so every delay is over 10 ms and the
// WebP lasts what the composition does. Rates up to 90 fps keep every frame.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { createSession } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

/** The duration of every frame (ANMF chunk), in ms. */
async function webpDelays(path: string): Promise<number[]> {
  const bytes = await readFile(path);
  const delays: number[] = [];
  for (let i = 12; i + 8 <= bytes.length;) {
    const size = bytes.readUInt32LE(i + 4);
    if (bytes.toString('latin1', i, i + 4) === 'ANMF') delays.push(bytes.readUIntLE(i + 8 + 12, 3));
    i += 8 + size + (size & 1);
  }
  return delays;
}

describe('animated WebP frame rates', () => {
  itWithFfmpeg.each([
    // [fps, alpha, frames in the WebP]
    [120, false, 60],
    [120, true, 60],
    [100, false, 50],
    [60, false, 60],
  ])(
    'a 1 s %s fps composition (alpha %s) plays 1 s as a WebP of %s frames',
    async (frameRate, alpha, frames) => {
      const dir = await tempDir();
      const s = createSession();
      const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
        name: 'Rate',
        width: 32,
        height: 18,
        frameRate,
        duration: 1,
      });
      const { id: layer } = await run<{ id: string }>(s, 'layer.addSolid', {
        comp,
        color: '#336699',
        width: 16,
        height: 18,
      });
      for (const [time, x] of [
        [0, 0],
        [1, 32],
      ] as const)
        await run(s, 'property.setKeyframe', {
          comp,
          layer,
          property: 'transform.position',
          time,
          value: [x, 9],
        });
      const output = join(dir, 'r.webp');
      const added = await s.engine.execute('renderQueue.add', { comp, output, alpha });
      expect(added.ok).toBe(true);
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.items.map((i) => i.status)).toEqual(['done']);
      const delays = await webpDelays(output);
      expect(delays).toHaveLength(frames);
      expect(Math.min(...delays)).toBeGreaterThan(10);
      expect(delays.reduce((a, b) => a + b, 0)).toBe(1000);
      const warned = (added.ok && added.warnings?.join('\n')) || '';
      if (frameRate > 90) expect(warned).toMatch(/animated WebP delay of 10 ms or less as 100 ms/);
      else expect(warned).toBe('');
    },
  );
});
