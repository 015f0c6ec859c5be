// A render that feeds an encoder child (video to MP4 here) runs its workers, and the decoders they start, at a
// lower priority than the encoder, which then comes first on a busy machine (item.ts, workerNiceness); a render
// whose workers encode their own frames (a PNG sequence) keeps its priority. A wrapper ffmpeg logs the nice
// value each real ffmpeg ran at: a decoder is started by a render worker thread and so shows that thread's.
import { writeFile } from 'node:fs/promises';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip, numberedClipComp } from '../../helpers/media.js';
import { niceLoggingFfmpeg } from '../../helpers/nice-ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';
import { renderTo, soundSession } from '../audio/sound-helpers.js';

// Thread priorities are Linux's (elsewhere the workers keep theirs).
const itOnLinuxWithFfmpeg = it.skipIf(!hasFfmpeg || process.platform !== 'linux');

describe('render worker priority', () => {
  itOnLinuxWithFfmpeg(
    'workers feeding an encoder run below it, and their decoders with them; others keep theirs',
    async () => {
      const dir = await tempDir();
      const ffmpeg = await niceLoggingFfmpeg(dir);
      const s = soundSession({ findFfmpeg: async () => ffmpeg.path });
      const { comp } = await numberedClipComp(s, await numberedClip(dir, 'h264', '24', 48));
      const base = getPriority();
      // Lowering is relative to where the session runs, up to the lowest priority there is.
      const lowered = Math.min(19, base + 10);

      expect((await renderTo(s, comp, join(dir, 'out.mp4'))).completed).toBe(1);
      const video = await ffmpeg.runs();
      expect(video.filter((r) => r.role === 'encoder')).toEqual([{ nice: base, role: 'encoder' }]);
      const decoders = video.filter((r) => r.role === 'decoder');
      expect(decoders.length).toBeGreaterThan(0);
      expect(decoders.every((r) => r.nice === lowered)).toBe(true);

      await writeFile(join(dir, 'nice.log'), '');
      expect((await renderTo(s, comp, join(dir, 'png', 'f_[#].png'))).completed).toBe(1);
      const stills = (await ffmpeg.runs()).filter((r) => r.role === 'decoder');
      expect(stills.length).toBeGreaterThan(0);
      expect(stills.every((r) => r.nice === base)).toBe(true);
    },
  );
});
