/**
 * A long looped bed rendered to a sound-only file reports its progress as it goes. With the clip meter on a
 * branch of its own (asplit), the loop's frames piled up in front of it: a 20-minute bed held 390 MB in the mix's
 * ffmpeg and said "frame 0" until the whole mix was done (an hour: 1 GB, and an MCP client's request timeout,
 * which progress resets, could expire). The meter now reads the mix in line, and the clip meter still works
 * (clipping.test.ts).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, soundComp, soundSession } from './sound-helpers.js';

const exec = promisify(execFile);
const MINUTES = 30;

describe('a long looped bed', () => {
  itWithFfmpeg('reports progress while its mix is written, not only at the end', async () => {
    const dir = await tempDir();
    const bed = join(dir, 'bed.wav');
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', 'sine=f=440:d=8:sample_rate=44100', '-ac', '2', bed],
    ]);
    const s = soundSession();
    const comp = await soundComp(s, 30, MINUTES * 60);
    const layer = await addSound(s, comp, bed);
    await run(s, 'layer.setTimeMap', { comp, layer, loop: true });
    await run(s, 'layer.setTiming', { comp, layer, outPoint: MINUTES * 60 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'bed-loop.wav') });
    const seen: number[] = [];
    const done = await s.engine.execute<JobResult>(
      'renderQueue.render',
      {},
      { onProgress: (p: { progress: number }) => void seen.push(p.progress) },
    );
    expect(done.ok && done.result.completed).toBe(1);
    // Between the start and the end, the mix said how far it was (ffmpeg reports every 0.5 s).
    const between = seen.filter((p) => p > 0.02 && p < 0.98);
    expect(between.length).toBeGreaterThan(0);
  });
});
