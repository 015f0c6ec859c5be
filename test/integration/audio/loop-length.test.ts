// A video whose sound is shorter than its picture (common: a few ms; here half a second, so a drift shows
// at once) loops and reverses over the picture's length, as its frames do: the sound does not run ahead of
// the picture by the difference on every loop, and reversed it plays where the picture shows it.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { click, decodeSound, RATE } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, setTimeMap, soundComp, soundSession } from './sound-helpers.js';

const exec = promisify(execFile);

/** A 2 s clip (30 fps picture) whose sound is 1.5 s long, with a click 0.5 s in. */
async function shortSoundClip(dir: string): Promise<string> {
  const out = join(dir, 'short-sound.mov');
  const sound = await click(dir, 0.5, 1.5);
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'color=black:s=32x32:r=30:d=2', '-i', sound],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', out],
  ]);
  return out;
}

/** The seconds at which a click starts: loud samples after at least 50 ms of quiet. */
function clicks(samples: Float32Array): number[] {
  const found: number[] = [];
  let lastLoud = -Infinity;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i]!) < 0.3) continue;
    if (i - lastLoud > 0.05 * RATE) found.push(i / RATE);
    lastLoud = i;
  }
  return found;
}

/** A 44.1 kHz WAV of 13231 samples (0.300023 s: no whole number of 48 kHz samples) with a click 0.1 s in. */
async function oddLengthClick(dir: string): Promise<string> {
  const out = join(dir, 'odd-click.wav');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', "aevalsrc='if(between(t,0.1,0.101),0.9,0)':s=44100:d=1", '-af', 'atrim=end_sample=13231'],
    ...['-c:a', 'pcm_f32le', out],
  ]);
  return out;
}

describe("a clip's sound over its picture's length", () => {
  itWithFfmpeg('loops with the picture, and reversed plays where the picture shows it', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 30, 6);
    const layer = await addSound(s, comp, await shortSoundClip(dir));
    const out = join(dir, 'mix.wav');

    await setTimeMap(s, dir, layer, { speed: 1, loop: true, freezeAt: null });
    await run(s, 'layer.setTiming', { comp, layer, outPoint: 6 });
    await renderTo(s, comp, out);
    const looped = clicks(await decodeSound(out));
    expect(looped).toHaveLength(3);
    looped.forEach((t, i) => expect(t).toBeCloseTo(0.5 + 2 * i, 3));

    // Reversed: footage time 0.5 s is shown 1.5 s into the layer (2 - 0.5), and heard there.
    await setTimeMap(s, dir, layer, { speed: -1, loop: false, freezeAt: null });
    await renderTo(s, comp, out);
    const reversed = clicks(await decodeSound(out));
    expect(reversed).toHaveLength(1);
    expect(reversed[0]).toBeCloseTo(1.5, 2);
  });

  // Four or more repeats take the grouped path (loop-runs.ts), here with half a second of silence in each repeat:
  // after its sound forwards, before it reversed (footage time 0.5 s is shown 1.5 s into each repeat).
  itWithFfmpeg.each([1, -1])(
    'speed %i, looped many times: each repeat of the shorter sound is heard with its picture',
    async (speed) => {
      const dir = await tempDir();
      const s = soundSession();
      const comp = await soundComp(s, 30, 41);
      const layer = await addSound(s, comp, await shortSoundClip(dir));
      await setTimeMap(s, dir, layer, { speed, loop: true, freezeAt: null });
      await run(s, 'layer.setTiming', { comp, layer, outPoint: 41 });
      const out = join(dir, 'mix.wav');
      await renderTo(s, comp, out);
      const samples = await decodeSound(out);
      const found = clicks(samples);
      // Reversed, the 1 ms click (0.5 to 0.501 s in the file) is heard from 2 - 0.501 s into each repeat.
      const inRepeat = speed > 0 ? 0.5 : 1.499;
      expect(found).toHaveLength(speed > 0 ? 21 : 20);
      found.forEach((t, i) => expect(Math.abs(t - (inRepeat + 2 * i)) * RATE).toBeLessThanOrEqual(2));
      const silent = speed > 0 ? 1.5 : 0;
      for (let i = 0; i < 20; i++) {
        const gap = samples.subarray(
          Math.round((2 * i + silent + 0.05) * RATE),
          Math.round((2 * i + silent + 0.45) * RATE),
        );
        expect(Math.max(...gap.map(Math.abs))).toBe(0);
      }
    },
  );

  // Many repeats take the grouped path (loop-runs.ts): each must land on the timeline's own sample, not drift by
  // the piece's fraction of a sample per repeat, forwards and reversed, and the loop's last, cut-short repeat too.
  itWithFfmpeg.each([1, -1])(
    'speed %i: a short sound looped a hundred times lands every repeat on its sample',
    async (speed) => {
      const dir = await tempDir();
      const s = soundSession();
      const comp = await soundComp(s, 30, 30);
      const file = await oddLengthClick(dir);
      const layer = await addSound(s, comp, file);
      await setTimeMap(s, dir, layer, { speed, loop: true, freezeAt: null });
      await run(s, 'layer.setTiming', { comp, layer, outPoint: 30 });
      const out = join(dir, 'loop.wav');
      await renderTo(s, comp, out);
      const period = 13231 / 44100;
      // Reversed, the click 0.1 s into the file is heard 0.1 s before each repeat's end.
      const inPiece = speed > 0 ? 0.1 : period - 0.101;
      const found = clicks(await decodeSound(out));
      const expected = Array.from({ length: Math.floor((30 - inPiece) / period) + 1 }, (_, k) =>
        Math.round((k * period + inPiece) * RATE),
      );
      expect(found).toHaveLength(expected.length);
      found.forEach((t, k) => expect(Math.abs(t * RATE - expected[k]!)).toBeLessThanOrEqual(6));
    },
  );

  // An MP3's stated length counts its encoder delay and padding (a 3 s file states 3.030 s), an Ogg Opus's its
  // pre-skip (3.0065 s); the decoder drops them, so a loop at the stated length came late by that on every repeat
  // after as much silence: the MP3's third click at 7.06 s instead of 7.00 s.
  itWithFfmpeg.each([
    ['mp3', 'libmp3lame'],
    ['ogg', 'libopus'],
  ])('a looped %s repeats at its sound’s length, every repeat on its sample', async (ext, codec) => {
    const dir = await tempDir();
    const file = join(dir, `clicks.${ext}`);
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', "aevalsrc='if(between(t,1,1.001),0.9,0)':s=48000:d=3", '-c:a', codec, file],
    ]);
    const s = soundSession();
    const comp = await soundComp(s, 30, 10);
    const layer = await addSound(s, comp, file);
    const item = s.engine.document.items.find((i) => i.type === 'footage');
    expect(item?.type === 'footage' && item.media?.duration).toBeCloseTo(3, 4);
    await setTimeMap(s, dir, layer, { speed: 1, loop: true, freezeAt: null });
    await run(s, 'layer.setTiming', { comp, layer, outPoint: 10 });
    const out = join(dir, 'loop.wav');
    await renderTo(s, comp, out);
    const found = clicks(await decodeSound(out));
    expect(found).toHaveLength(3);
    found.forEach((t, k) => expect(Math.abs(t - (1 + 3 * k)) * RATE).toBeLessThanOrEqual(2));
  });

  itWithFfmpeg(
    'a sound that outlasts its picture: the import says so, and with the out point moved it is heard to its end',
    async () => {
      const dir = await tempDir();
      // 1 s of picture, 3 s of sound with clicks at 0.5 and 2.5 s.
      const sound = join(dir, 'long-sound.wav');
      await exec('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
        ...['-i', "aevalsrc='if(between(t,0.5,0.501)+between(t,2.5,2.501),0.9,0)':s=48000:d=3", sound],
      ]);
      const clip = join(dir, 'runs-on.mov');
      await exec('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', 'color=black:s=32x32:r=30:d=1', '-i', sound],
        ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', clip],
      ]);
      const s = soundSession();
      const comp = await soundComp(s, 30, 4);
      const imported = await s.engine.execute('file.import', { path: clip });
      expect(imported.ok && imported.warnings).toEqual([
        'The sound of "runs-on.mov" lasts 3 s, its picture 1 s: a layer of it ends with the picture. Move the layer\'s out point (layer.setTiming {outPoint}) to hear the rest.',
      ]);
      const footage = imported.ok ? (imported.result as { id: string }).id : '';
      const { id: layer } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
      const out = join(dir, 'mix.wav');
      await renderTo(s, comp, out);
      expect(clicks(await decodeSound(out)).map((t) => +t.toFixed(2))).toEqual([0.5]);
      await run(s, 'layer.setTiming', { comp, layer, outPoint: 4 });
      await renderTo(s, comp, out);
      expect(clicks(await decodeSound(out)).map((t) => +t.toFixed(2))).toEqual([0.5, 2.5]);
    },
  );
});
