// A FLAC whose frames give way to garbage after its header (a hostile file, or one overwritten past a point):
// its STREAMINFO still states the whole length, and ffmpeg's decoder skips the garbage without a word, so the
// import recorded 2 s for 0.31 s of sound and a render mixed 1.7 s of silence after it, done, exit 0. Its length
// is now where its decoder's last sample ends, as an MP3's is.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { soundSession } from './sound-helpers.js';

const exec = promisify(execFile);

/** A 2 s 44.1 kHz FLAC cut to its first 12,000 bytes (a few frames), then 200 KB of bytes that hold no frame. */
async function garbageTail(dir: string): Promise<string> {
  const whole = join(dir, 'whole.flac');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'sine=f=440:d=2:r=44100', '-c:a', 'flac', whole],
  ]);
  const out = join(dir, 'garbage.flac');
  const head = (await readFile(whole)).subarray(0, 12_000);
  await writeFile(out, Buffer.concat([head, Buffer.alloc(200_000, 0x55)]));
  return out;
}

/** Seconds of sound ffmpeg decodes from `path`. */
async function decodedSeconds(path: string): Promise<number> {
  const { stdout } = await exec(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-i', path, '-f', 's16le', '-ac', '1', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout.length / 2 / 44100;
}

describe('a FLAC with garbage after its first frames', () => {
  itWithFfmpeg('is as long as its decoder gives sound, not as its header states', async () => {
    const dir = await tempDir();
    const path = await garbageTail(dir);
    const heard = await decodedSeconds(path);
    expect(heard).toBeGreaterThan(0.1);
    expect(heard).toBeLessThan(1);
    const s = soundSession();
    const item = await run<FootageItem>(s, 'file.import', { path });
    expect(item.media?.audio?.duration).toBeCloseTo(heard, 3);
    expect(item.media?.duration).toBeCloseTo(heard, 3);
  });
});
