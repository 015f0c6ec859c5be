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
    expect(gone.warnings[0]).toMatch(/sound only.*final render fails/);
    // And what to do about it, as a final render's error says (it was left out).
    expect(gone.warnings[0]).toMatch(/final render fails on it\. Put the file back .*footage\.relink/);
  });
});
