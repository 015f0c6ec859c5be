/**
 * Interlaced video imports with a warning that names its field order, says its motion combs (frames are drawn
 * whole) and how to deinterlace it; progressive video says nothing. Clips made with ffmpeg here: H.264 coded
 * top field first, ProRes flagged bottom field first.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { newEngine } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
const QUIET = ['-hide_banner', '-loglevel', 'error', '-y'];
const SOURCE = ['-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=25:d=0.4'];

describeWithFfmpeg('interlaced footage', () => {
  // Until 2026-12-07 an interlaced clip imported without a word, and every moving edge combed in the render.
  itWithFfmpeg(
    'is imported with a warning naming its first field and the way to deinterlace it',
    async () => {
      const dir = await tempDir();
      const [tff, bff, progressive] = [
        join(dir, 'tff.mp4'),
        join(dir, 'bff.mov'),
        join(dir, 'progressive.mp4'),
      ];
      await exec('ffmpeg', [
        ...QUIET,
        ...SOURCE,
        ...['-vf', 'setfield=tff', '-flags', '+ildct+ilme', '-c:v', 'libx264', '-x264opts', 'tff=1', tff],
      ]);
      await exec('ffmpeg', [...QUIET, ...SOURCE, ...['-vf', 'setfield=bff', '-c:v', 'prores_ks', bff]]);
      await exec('ffmpeg', [...QUIET, ...SOURCE, ...['-c:v', 'libx264', progressive]]);
      const engine = newEngine();
      const warningsOf = async (path: string) => {
        const r = await engine.execute('file.import', { path });
        expect(r.ok).toBe(true);
        return r.ok ? (r.warnings ?? []) : [];
      };
      const [top] = await warningsOf(tff);
      expect(top).toContain(`"${tff}" is interlaced (top field first)`);
      expect(top).toContain('shows combing');
      expect(top).toContain('ffmpeg -i FILE -vf bwdif');
      const [bottom] = await warningsOf(bff);
      expect(bottom).toContain(`"${bff}" is interlaced (bottom field first)`);
      expect(await warningsOf(progressive)).toEqual([]);
    },
  );
});
