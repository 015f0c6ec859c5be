// A clip's sound stream may start after its picture (or before it): its timestamps say so, and players follow
// them. Footage time 0 is the first picture, so a click the file places at t plays at t - (picture's start),
// within one audio frame. And mono sound plays on both sides at its own level (the default upmix lowers it 3 dB).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { click, decodeSound, firstLoud, RATE, rms, tone } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { renderTo, soundComp, soundSession } from './sound-helpers.js';

const exec = promisify(execFile);
const AUDIO_FRAME = 1024;

/** A 3 s black 32x32 clip with `sound` muxed; `late` delays the sound, `early` the picture, by 0.5 s. */
async function clipWith(dir: string, sound: string, shift: 'late' | 'early'): Promise<string> {
  const picture = ['-f', 'lavfi', '-i', 'color=c=black:s=32x32:r=30:d=3'];
  const offset = ['-itsoffset', '0.5'];
  // MKV keeps each stream's own start; MOV writes the sound's as an edit list.
  const out = join(dir, shift === 'late' ? 'late.mov' : 'early.mkv');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...(shift === 'early' ? [...offset, ...picture, '-i', sound] : [...picture, ...offset, '-i', sound]),
    ...['-map', '0:v', '-map', '1:a', '-c:v', 'libx264', '-c:a', 'pcm_s16le', out],
  ]);
  return out;
}

async function renderedClickAt(clip: string, dir: string): Promise<{ sample: number; offset?: number }> {
  const s = soundSession();
  const comp = await soundComp(s, 30, 3, 32);
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: clip });
  await run(s, 'layer.addFootage', { comp, footage });
  const item = s.engine.document.items.find((i) => i.id === footage) as FootageItem;
  const out = join(dir, 'mix.wav');
  const job = await renderTo(s, comp, out);
  expect(job.completed).toBe(1);
  return { sample: firstLoud(await decodeSound(out)), offset: item.media?.audio?.offset };
}

describe('where a clip sound stream starts', () => {
  itWithFfmpeg('a sound that starts 0.5 s after the picture is heard 0.5 s later', async () => {
    const dir = await tempDir();
    // The click is 0.5 s into the sound, so 1.0 s into the clip as a player shows it.
    const clip = await clipWith(dir, await click(dir, 0.5, 2), 'late');
    const { sample, offset } = await renderedClickAt(clip, dir);
    expect(offset).toBeCloseTo(0.5, 3);
    expect(Math.abs(sample - 1.0 * RATE)).toBeLessThanOrEqual(AUDIO_FRAME);
  });

  itWithFfmpeg('a sound that starts 0.5 s before the picture loses what comes first', async () => {
    const dir = await tempDir();
    // The click is 0.8 s into the sound; the picture starts at 0.5 s, so it is 0.3 s into the footage.
    const clip = await clipWith(dir, await click(dir, 0.8, 2), 'early');
    const { sample, offset } = await renderedClickAt(clip, dir);
    expect(offset).toBeCloseTo(-0.5, 3);
    expect(Math.abs(sample - 0.3 * RATE)).toBeLessThanOrEqual(AUDIO_FRAME);
  });

  itWithFfmpeg('mono plays on both sides at its own level', async () => {
    const dir = await tempDir();
    const mono = await tone(dir, { freq: 440, seconds: 1, channels: 1, amplitude: 0.5, rate: 48_000 });
    const s = soundSession();
    const comp = await soundComp(s, 30, 1, 32);
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: mono });
    await run(s, 'layer.addFootage', { comp, footage });
    const out = join(dir, 'mono.wav');
    expect((await renderTo(s, comp, out)).completed).toBe(1);
    // Each side keeps the source's RMS, a sine's amplitude / sqrt 2 (the default upmix gave 0.25 on each).
    for (const side of [0, 1]) {
      const level = rms(await decodeSound(out, side), 0.2, 0.8);
      expect(level).toBeCloseTo(0.5 / Math.SQRT2, 2);
    }
  });
});
