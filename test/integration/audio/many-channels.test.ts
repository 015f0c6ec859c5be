// A sound file of a channel count ffmpeg has no standard layout for (9, 64: a WAV of a multitrack recorder or an
// ambisonic mic, no channel mask) imported, and every render of it failed inside ffmpeg ("Error reinitializing
// filters!") with a remedy about installing ffmpeg: its resampler cannot downmix channels it cannot name. It is
// now summed to stereo by parity, at its own level.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { decodeSound, rms } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, soundComp, soundSession } from './sound-helpers.js';

/**
 * A 16-bit PCM WAV of `channels` channels, each a 440 Hz sine at half scale (only channel `only` when given, the
 * others silent), 1 s at 44.1 kHz; no channel mask.
 */
async function wavOf(dir: string, channels: number, only?: number): Promise<string> {
  const rate = 44_100;
  const data = Buffer.alloc(rate * channels * 2);
  for (let i = 0; i < rate; i++) {
    const v = Math.round(0.5 * 32767 * Math.sin((2 * Math.PI * 440 * i) / rate));
    for (let c = 0; c < channels; c++)
      data.writeInt16LE(only === undefined || c === only ? v : 0, (i * channels + c) * 2);
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(channels, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * channels * 2, 28);
  head.writeUInt16LE(channels * 2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  const path = join(dir, `ch${channels}.wav`);
  await writeFile(path, Buffer.concat([head, data]));
  return path;
}

describe('sound of a channel count without a standard layout', () => {
  itWithFfmpeg.each([9, 16, 24, 64])(
    'a %i-channel WAV renders, heard on both sides at its level',
    async (channels) => {
      const dir = await tempDir();
      const s = soundSession();
      const comp = await soundComp(s, 10, 1);
      await addSound(s, comp, await wavOf(dir, channels));
      const out = join(dir, 'mix.wav');
      const job = await renderTo(s, comp, out);
      expect(job.items[0]?.error ?? null).toBeNull();
      expect(job.items[0]?.status).toBe('done');
      // Every channel carries the same half-scale sine (RMS 0.354): the parity sums keep it on each side.
      for (const side of [0, 1]) expect(rms(await decodeSound(out, side), 0.1, 0.9)).toBeCloseTo(0.354, 2);
    },
  );

  // 16 and 24 channels have ffmpeg layouts (hexadecagonal, 22.2) whose fold to stereo dropped channels 8 to 15
  // of a 16-channel WAV and 16 of a 24-channel one's: a multitrack recorder's last tracks were silent.
  itWithFfmpeg.each([
    [16, 15],
    [24, 20],
  ])('a %i-channel WAV keeps channel %i, heard at its level', async (channels, only) => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 1);
    await addSound(s, comp, await wavOf(dir, channels, only));
    const out = join(dir, 'mix.wav');
    expect((await renderTo(s, comp, out)).completed).toBe(1);
    // One channel of the parity sum: its side at its level divided by the side's channel count.
    const side = only % 2;
    const expected = 0.354 / Math.ceil((channels - side) / 2);
    expect(rms(await decodeSound(out, side), 0.1, 0.9)).toBeCloseTo(expected, 3);
  });
});
