// The video encoder's picture input is I420 (converted by the render workers) for opaque MP4 and WebM, and
// RGBA for the formats whose encoding is not YUV 4:2:0 (ProRes) or that carry alpha.
// It reads its inputs without a reader thread: ffmpeg 5 starts one per input when a queue size is
// given or a second input (the sound) is named, and with it held ~75 MB more at a 1080p render's peak. The
// render goes through a wrapper ffmpeg (a real process that logs its arguments and runs the real one), so the
// test reads what the encoder was really started with, and that the files it wrote are whole.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { tone } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { loggingFfmpeg, pictureFormat } from '../../helpers/ffmpeg-log.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, soundComp, soundSession } from '../audio/sound-helpers.js';
import { run } from '../../helpers/queue.js';

/** Every input of `args` (each `-i`) with the queue size given just before it. */
function inputsWithQueueSize(args: string[]): Array<string | undefined> {
  return args.flatMap((a, i) =>
    a === '-i' ? [args[i - 2] === '-thread_queue_size' ? args[i - 1] : undefined] : [],
  );
}

/** A session whose ffmpeg logs its arguments, and a 64x64 comp with a solid, 10 frames. */
async function loggedComp() {
  const dir = await tempDir();
  const out = await tempDir();
  const real = execFileSync('which', ['ffmpeg'], { encoding: 'utf8' }).trim();
  const ffmpeg = await loggingFfmpeg(dir, real);
  const s = soundSession({ findFfmpeg: async () => ffmpeg.path });
  const comp = await soundComp(s, 10, 1, 64);
  await run(s, 'layer.addSolid', { comp, color: '#336699' });
  return { dir, out, ffmpeg, s, comp };
}

describe('the video encoder’s inputs', () => {
  itWithFfmpeg(
    'are read without a reader thread, with and without sound, and the file is whole',
    async () => {
      const { dir, out, ffmpeg, s, comp } = await loggedComp();
      expect((await renderTo(s, comp, join(out, 'silent.mp4'))).completed).toBe(1);
      await addSound(s, comp, await tone(dir, { freq: 440, seconds: 1 }));
      expect((await renderTo(s, comp, join(out, 'sound.mp4'))).completed).toBe(1);

      const encoders = (await ffmpeg.runs()).filter(
        (args) => args.includes('rawvideo') && args.includes('pipe:0'),
      );
      expect(encoders).toHaveLength(2);
      // The silent one has the picture alone; the other the picture and the mix.
      expect(encoders.map(inputsWithQueueSize)).toEqual([['0'], ['0', '0']]);
      expect(encoders.map(pictureFormat)).toEqual(['yuv420p', 'yuv420p']);
      const streams = (file: string) =>
        execFileSync(
          'ffprobe',
          ['-v', 'error', '-show_entries', 'stream=codec_type,nb_frames', '-of', 'csv=p=0', file],
          {
            encoding: 'utf8',
          },
        ).trim();
      expect(streams(join(out, 'silent.mp4'))).toBe('video,10');
      expect(streams(join(out, 'sound.mp4')).split('\n')).toEqual([
        'video,10',
        expect.stringMatching(/^audio,\d+$/),
      ]);
    },
  );
});

describe('the picture the encoder is fed', () => {
  itWithFfmpeg(
    'is I420 for opaque MP4 and WebM, RGBA for ProRes and for WebM with alpha',
    async () => {
      const { out, ffmpeg, s, comp } = await loggedComp();
      const items = [
        { format: 'webm', alpha: false },
        { format: 'webm', alpha: true },
        { format: 'mov', alpha: false },
      ];
      for (const { format, alpha } of items) {
        const output = join(out, `${alpha}.${format}`);
        expect((await renderTo(s, comp, output, { format, alpha })).completed).toBe(1);
      }
      const encoders = (await ffmpeg.runs()).filter((args) => args.includes('pipe:0'));
      expect(encoders.map(pictureFormat)).toEqual(['yuv420p', 'rgba', 'rgba']);
    },
    60_000,
  );
});
