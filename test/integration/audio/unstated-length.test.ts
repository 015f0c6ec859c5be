// Sound whose file does not state its length, or states a guess: a WebM written to a pipe (as a browser's
// MediaRecorder writes it) has no Duration, and imported with sound 0 s long it rendered silent; raw ADTS AAC
// and an MP3 without a Xing header get a length ffprobe estimates from the bit rate ("Estimating duration from
// bitrate"), so a 10 s AAC recorded as 7.2 s was cut there and a 20 s VBR MP3 recorded as 38.7 s made a layer
// that ran on in silence. Import reads such a stream's packets to their end.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { decodeSound, firstLoud, RATE, rms } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, soundComp, soundSession } from './sound-helpers.js';

const exec = promisify(execFile);
const QUIET = ['-hide_banner', '-loglevel', 'error', '-y'];

/** What ffmpeg writes for `args` to its stdout (`-` as output: a pipe, so nothing is written back into the file). */
async function piped(args: string[], out: string): Promise<string> {
  const { stdout } = await exec('ffmpeg', [...QUIET, ...args, '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 26,
  });
  await writeFile(out, stdout as unknown as Buffer);
  return out;
}

/** A 3 s lavfi sound: silence with a click at 1.0 s. */
const CLICK = ['-f', 'lavfi', '-i', "aevalsrc='if(between(t,1,1.01),0.8,0)':s=48000:d=3"];
/** 10 s of sound: silence for 5 s, then a 440 Hz tone. */
const LATE_TONE = ['-f', 'lavfi', '-i', "aevalsrc='if(lt(t,5),0,0.3*sin(2*PI*440*t))':s=48000:d=10"];

async function importedSound(path: string): Promise<{ media: FootageItem['media'] }> {
  return run<{ media: FootageItem['media'] }>(soundSession(), 'file.import', { path });
}

describe('sound whose file does not state its length', () => {
  itWithFfmpeg('a WebM written to a pipe (no Duration) is heard, picture and sound', async () => {
    const dir = await tempDir();
    const webm = await piped(
      [
        ...['-f', 'lavfi', '-i', 'color=c=black:s=32x32:r=30:d=3', ...CLICK],
        ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-c:a', 'libopus', '-f', 'webm'],
      ],
      join(dir, 'live.webm'),
    );
    const s = soundSession();
    const comp = await soundComp(s, 30, 3);
    await addSound(s, comp, webm);
    const item = s.engine.document.items.find((i) => i.type === 'footage') as FootageItem;
    expect(item.media!.audio!.duration).toBeGreaterThan(2.95);
    expect(item.media!.audio!.duration).toBeLessThan(3.05);
    const out = join(dir, 'mix.wav');
    expect((await renderTo(s, comp, out)).completed).toBe(1);
    // The click is heard near 1 s (where to the millisecond is opus-start.test.ts's: ffmpeg's WebM moves it).
    expect(Math.abs(firstLoud(await decodeSound(out)) - RATE)).toBeLessThan(0.02 * RATE);
  });

  itWithFfmpeg('a sound-only WebM written to a pipe has its length', async () => {
    const dir = await tempDir();
    const webm = await piped([...CLICK, '-c:a', 'libopus', '-f', 'webm'], join(dir, 'voice.webm'));
    const { media } = await importedSound(webm);
    expect(media).toMatchObject({ kind: 'audio' });
    expect(media!.duration).toBeGreaterThan(2.95);
    expect(media!.duration).toBeLessThan(3.05);
  });

  // A WAV written to a pipe cannot go back to write its length: ffmpeg leaves 0xFFFFFFFF, SoX 0x7ffff000, some
  // writers 0. Its demuxer flags the file's last, short packet "corrupt": both a WAV's mix and a video's encoder
  // took it for a file cut short and failed the item (unsupported_format) though every sample was there.
  itWithFfmpeg.each([0xffffffff, 0x7ffff000, 0])(
    'a WAV written to a pipe (data size %i in its header) renders, heard to its end',
    async (size) => {
      const dir = await tempDir();
      // A 3 s click track with a tone after it, so that a render cut short at the last packet would be heard.
      const src = "aevalsrc='if(between(t,1,1.01),0.8,if(gt(t,2),0.3*sin(2*PI*440*t),0))':s=48000:d=3";
      const wav = await piped(['-f', 'lavfi', '-i', src, '-f', 'wav'], join(dir, 'live.wav'));
      const bytes = await readFile(wav);
      expect(bytes.readUInt32LE(bytes.indexOf('data') + 4)).toBe(0xffffffff);
      bytes.writeUInt32LE(size, bytes.indexOf('data') + 4);
      await writeFile(wav, bytes);
      const s = soundSession();
      const comp = await soundComp(s, 30, 3);
      await addSound(s, comp, wav);
      for (const name of ['mix.wav', 'mix.mp4']) {
        const r = await renderTo(s, comp, join(dir, name));
        expect(r.items[0]!.error).toBeUndefined();
        const sound = await decodeSound(join(dir, name));
        expect(Math.abs(firstLoud(sound) - RATE)).toBeLessThan(0.002 * RATE);
        expect(rms(sound, 2.5, 2.95)).toBeGreaterThan(0.15);
      }
      // Cut short since its import, it still fails before the mix: ffprobe measures a WAV by its size.
      await writeFile(wav, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const r = await renderTo(s, comp, join(dir, 'cut.wav'));
      expect(r.items[0]!.error?.code).toBe('unsupported_format');
    },
  );

  itWithFfmpeg('raw ADTS AAC lasts its 10 s and is heard to its end', async () => {
    const dir = await tempDir();
    const aac = join(dir, 'late-tone.aac');
    await exec('ffmpeg', [...QUIET, ...LATE_TONE, '-c:a', 'aac', '-b:a', '256k', '-f', 'adts', aac]);
    const s = soundSession();
    const comp = await soundComp(s, 10, 10);
    await addSound(s, comp, aac);
    const item = s.engine.document.items.find((i) => i.type === 'footage') as FootageItem;
    // 10 s and the encoder's priming and padding (1024 + 256 samples), all of which ffmpeg decodes.
    expect(item.media!.duration).toBeGreaterThan(9.99);
    expect(item.media!.duration).toBeLessThan(10.05);
    const out = join(dir, 'mix.wav');
    expect((await renderTo(s, comp, out)).completed).toBe(1);
    // The tone is heard to the end, not cut where the bit rate's estimate ended (7.2 s).
    expect(rms(await decodeSound(out), 8, 9.8)).toBeGreaterThan(0.15);
  });

  itWithFfmpeg('a VBR MP3 without a Xing header lasts its 20 s, and so does its layer', async () => {
    const dir = await tempDir();
    const mp3 = join(dir, 'noise.mp3');
    // Silence, then noise: the bit rate of the start is far from the average, so the estimate is far off.
    const src = "aevalsrc='if(lt(t,10),0,0.5*random(0))':s=44100:d=20";
    await exec('ffmpeg', [
      ...QUIET,
      '-f',
      'lavfi',
      '-i',
      src,
      '-c:a',
      'libmp3lame',
      '-q:a',
      '2',
      '-write_xing',
      '0',
      mp3,
    ]);
    const s = soundSession();
    const comp = await soundComp(s, 10, 40);
    const layer = await addSound(s, comp, mp3);
    const item = s.engine.document.items.find((i) => i.type === 'footage') as FootageItem;
    expect(item.media!.duration).toBeGreaterThan(19.95);
    expect(item.media!.duration).toBeLessThan(20.1);
    const placed = s.engine.document.items
      .flatMap((i) => (i.type === 'composition' ? i.layers : []))
      .find((l) => l.id === layer)!;
    expect(placed.outPoint).toBeCloseTo(item.media!.duration!, 6);
    // Its render checks the file against the import (a quick look, then a count): it is unchanged.
    expect((await renderTo(s, comp, join(dir, 'mix.wav'))).completed).toBe(1);
  });
});
