// Opus starts with a pre-skip (312 samples, 6.5 ms, from ffmpeg's encoder) that its decoder drops. A WebM's
// Opus stream starts (start_time) at the dropped samples, so placing the sound by start_time put it 7 ms
// earlier than ffmpeg plays it; the docs promise sync within 2 ms. The sound is placed by its first heard
// sample, and measured here against where ffmpeg itself puts the click on the file's timeline.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { ffmpegBytes, firstLoud, decodeSound, RATE } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, soundComp, soundSession } from './sound-helpers.js';

const exec = promisify(execFile);
const QUIET = ['-hide_banner', '-loglevel', 'error', '-y'];

/** A 3 s black VP9 WebM with Opus sound that starts 0.5 s after the picture, a 1 kHz burst 1 s into it. */
async function opusClip(dir: string): Promise<string> {
  const sound = join(dir, 'burst.webm');
  const burst = "aevalsrc='if(between(t,1,1.01),0.8*sin(2*PI*1000*t),0)':s=48000:d=3";
  await exec('ffmpeg', [...QUIET, '-f', 'lavfi', '-i', burst, '-c:a', 'libopus', sound]);
  const out = join(dir, 'clip.webm');
  await exec('ffmpeg', [
    ...QUIET,
    ...['-f', 'lavfi', '-i', 'color=c=black:s=32x32:r=30:d=3', '-itsoffset', '0.5', '-i', sound],
    ...['-map', '0:v', '-map', '1:a', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-c:a', 'copy', out],
  ]);
  return out;
}

/** Where ffmpeg puts the burst, in seconds after the first picture: its own timestamps, kept (-copyts). */
async function ffmpegsBurst(clip: string): Promise<number> {
  const bytes = await ffmpegBytes([
    ...['-copyts', '-i', clip, '-map', '0:a', '-af', 'aresample=async=1:first_pts=0'],
    ...['-ar', String(RATE), '-ac', '1', '-f', 'f32le', '-'],
  ]);
  const samples = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const { stdout } = await exec('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=start_time'],
    ...['-of', 'csv=p=0', clip],
  ]);
  return firstLoud(samples) / RATE - Number(stdout.trim());
}

describe('Opus sound', () => {
  itWithFfmpeg('is heard where ffmpeg places it, within 2 ms', async () => {
    const dir = await tempDir();
    const clip = await opusClip(dir);
    const expected = await ffmpegsBurst(clip);
    expect(expected).toBeGreaterThan(1.45);
    expect(expected).toBeLessThan(1.55);
    const s = soundSession();
    const comp = await soundComp(s, 30, 3);
    await addSound(s, comp, clip);
    const out = join(dir, 'mix.wav');
    expect((await renderTo(s, comp, out)).completed).toBe(1);
    const heard = firstLoud(await decodeSound(out)) / RATE;
    expect(Math.abs(heard - expected)).toBeLessThanOrEqual(0.002);
  });
});
