/**
 * Footage whose seeks give no frame: an MPEG-TS stream has no index, so ffmpeg's seek lands between key frames,
 * where H.264 decodes nothing until the next key frame (none, in a clip of one GOP). Such a file is read from
 * its start instead: previews and frame.save at any time show the frame asked, without a placeholder.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, expect } from 'vitest';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { frameOf, numberedClip } from '../../helpers/media.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
afterEach(disposeAll);

describeWithFfmpeg('footage whose seeks give no frame', () => {
  itWithFfmpeg('an MPEG-TS clip of one GOP shows the frame asked at any time', async () => {
    const dir = await tempDir();
    // 90 frames, one key frame: every seek into it lands after the only key frame.
    const mp4 = await numberedClip(dir, 'h264', '30', 90, { extra: ['-g', '1000'] });
    const ts = join(dir, 'clip.ts');
    await exec('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      mp4,
      '-c',
      'copy',
      '-f',
      'mpegts',
      ts,
    ]);
    const s = trackedSession({});
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 3,
    });
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: ts });
    await run(s, 'layer.addFootage', { comp, footage });

    // Previews (the scrub cache's path) first, each far from the last: none shows the placeholder.
    for (const time of [2, 0.5, 2.9, 1.2]) {
      const preview = await run<{ warnings?: string[] }>(s, 'frame.preview', { comp, time });
      expect(preview.warnings ?? []).toEqual([]);
    }
    // frame.save decodes exactly: frame 30 t of the clip at time t, going forward and back.
    for (const frame of [60, 15, 87, 40]) {
      const path = join(dir, `f${frame}.png`);
      await run(s, 'frame.save', { comp, time: frame / 30, path });
      const { data } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
      const i = (24 * 64 + 32) * 4;
      expect(frameOf(data[i]!, data[i + 1]!, data[i + 2]!)).toBe(frame);
    }
  });
});
