/**
 * MP4, M4A and MOV (AAC) say in their edit lists how long each track plays, in the movie's time unit: ffmpeg's
 * default unit (1/1000 s) cut a 45-frame 29.97 fps item's sound to 72048 samples of its 72072 (1.501 s), so a
 * player stopped it 24 samples early, and the picture's list said 1.502 s. Each now says exactly frames / rate.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';
import { tone } from '../../helpers/audio.js';
import { addSound, renderTo, soundComp, soundSession } from './sound-helpers.js';

const exec = promisify(execFile);

/** The duration each stream's edit list gives it, in samples of 48 kHz (sound) or seconds x 30000 (picture). */
async function listed(path: string): Promise<{ audio?: number; video?: number }> {
  const { stdout } = await exec('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=codec_type,duration', '-of', 'json', path],
  ]);
  const streams = (JSON.parse(stdout) as { streams: { codec_type: string; duration: string }[] }).streams;
  const of = (type: string) => streams.find((s) => s.codec_type === type)?.duration;
  const [a, v] = [of('audio'), of('video')];
  return {
    ...(a !== undefined && { audio: Math.round(Number(a) * 48000) }),
    ...(v !== undefined && { video: Math.round(Number(v) * 30000) }),
  };
}

describe('edit lists of MP4, M4A and MOV', () => {
  itWithFfmpeg('give each track exactly the frames / rate of the item', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 30000 / 1001, 3);
    await addSound(s, comp, await tone(dir, { freq: 440, seconds: 3 }));
    const range = { frameRange: { start: 13, end: 57 } };
    // 45 frames of 1001/30000 s: 1.5015 s, 72072 samples.
    await renderTo(s, comp, join(dir, 'v.mp4'), range);
    expect(await listed(join(dir, 'v.mp4'))).toEqual({ audio: 72072, video: 45045 });
    await renderTo(s, comp, join(dir, 'a.m4a'), range);
    expect(await listed(join(dir, 'a.m4a'))).toEqual({ audio: 72072 });
    await renderTo(s, comp, join(dir, 'p.mov'), { ...range, encoding: { audioCodec: 'aac' } });
    expect((await listed(join(dir, 'p.mov'))).audio).toBe(72072);
  });
});
