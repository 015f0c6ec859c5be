/**
 * Sound-only footage whose file is gone: a preview draws nothing of it, so it used to say nothing (warnings: [])
 * while a final render fails no_such_file. A preview now warns, naming the file; with the file there, no warning.
 */
import { execFile } from 'node:child_process';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect } from 'vitest';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { run } from '../../helpers/queue.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
afterEach(disposeAll);

describeWithFfmpeg('sound-only footage in previews', () => {
  itWithFfmpeg('a preview warns when its file is gone, and not while it is there', async () => {
    const dir = await tempDir();
    const music = join(dir, 'music.wav');
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:d=2', music],
    ]);
    const s = trackedSession();
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 2,
    });
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: music });
    await run(s, 'layer.addFootage', { comp, footage });

    const there = await run<{ warnings: string[] }>(s, 'frame.preview', { comp, time: 1 });
    expect(there.warnings).toEqual([]);

    await rename(music, join(dir, 'moved.wav'));
    const gone = await run<{ warnings: string[] }>(s, 'frame.preview', { comp, time: 1 });
    expect(gone.warnings).toHaveLength(1);
    expect(gone.warnings[0]).toContain(music);
    // Only a render with sound reads it: until 2026-12-07 the warning said "a final render fails on it", and
    // a PNG sequence of the same comp then rendered done.
    expect(gone.warnings[0]).toMatch(
      /sound only.*a render with sound \(MP4, MOV, WebM, WAV, MP3 or M4A\) fails/,
    );
    // And what to do about it, as a final render's error says (it was left out).
    expect(gone.warnings[0]).toMatch(/fails on it\. Put the file back .*footage\.relink/);
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'f_[##].png'),
      frameRange: { start: 0, end: 1 },
    });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'mix.wav') });
    const job = await run<JobResult>(s, 'renderQueue.render', {});
    expect(job.items.map((i) => i.error?.code ?? i.status)).toEqual(['done', 'no_such_file']);
  });
});
