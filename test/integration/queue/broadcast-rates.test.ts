// A composition at a broadcast rate typed as people type it (29.97, 23.976) renders to a file tagged with the
// rate players and QC tools expect (30000/1001, 24000/1001), not 2997/100, with every frame; whole rates stay.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { createSession } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);

async function rateOf(path: string): Promise<{ rate: string; frames: number }> {
  const { stdout } = await exec('ffprobe', [
    ...['-v', 'error', '-count_frames', '-select_streams', 'v:0'],
    ...['-show_entries', 'stream=r_frame_rate,nb_read_frames', '-of', 'json', path],
  ]);
  const s = (JSON.parse(stdout) as { streams: Array<{ r_frame_rate: string; nb_read_frames: string }> })
    .streams[0]!;
  return { rate: s.r_frame_rate, frames: Number(s.nb_read_frames) };
}

describe('broadcast frame rates', () => {
  itWithFfmpeg.each([
    [29.97, '30000/1001'],
    [23.976, '24000/1001'],
    [25, '25/1'],
  ])('a %s fps composition is written at %s', async (frameRate, expected) => {
    const dir = await tempDir();
    const s = createSession();
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      name: 'Rate',
      width: 32,
      height: 18,
      frameRate,
      duration: 1,
    });
    await run(s, 'layer.addSolid', { comp, color: '#336699' });
    const frames = Math.round(frameRate);
    for (const ext of ['mp4', 'mov', 'webm'])
      await run(s, 'renderQueue.add', { comp, output: join(dir, `r.${ext}`) });
    const job = await run<JobResult>(s, 'renderQueue.render', {});
    expect(job.items.map((i) => i.status)).toEqual(['done', 'done', 'done']);
    for (const ext of ['mp4', 'mov', 'webm'])
      expect(await rateOf(join(dir, `r.${ext}`)), ext).toEqual({ rate: expected, frames });
  });
});
