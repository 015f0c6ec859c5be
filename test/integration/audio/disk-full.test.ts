// A full disk while the sound is written (a WAV, or a video's mix temporary) fails the item with io_error and
// leaves nothing behind, as for the picture's encoder. Needs a real tmpfs (root); skipped with a message otherwise.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tone } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { listDir, run } from '../../helpers/queue.js';
import { canMount, mountTmpfs, type Tmpfs } from '../../helpers/tmpfs.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, soundComp, soundSession } from './sound-helpers.js';

const mounts: Tmpfs[] = [];
afterEach(async () => {
  for (const m of mounts.splice(0)) await m.unmount();
});

/** A 1 MB tmpfs filled up but for `leave` bytes; null when mounting is not permitted. */
async function nearlyFull(leave: number): Promise<string | null> {
  const m = await mountTmpfs('1m');
  if (!m) {
    process.stderr.write('sound disk-full: skipped, mounting a tmpfs is not permitted here\n');
    return null;
  }
  mounts.push(m);
  const fh = await open(join(m.dir, 'fill'), 'w');
  try {
    for (;;) await fh.write(Buffer.alloc(4096));
  } catch {
    // ENOSPC: full.
  } finally {
    await fh.truncate((await fh.stat()).size - leave);
    await fh.close();
  }
  return m.dir;
}

const withMount = canMount ? itWithFfmpeg : it.skip;

describe('full disk while writing sound', () => {
  // 4 s of sound: 768 KB as a 16-bit WAV, 1.5 MB as the video's float mix; 64 KB are left.
  withMount.each(['sound.wav', 'clip.mp4'])(
    '%s fails with io_error and leaves only what was there',
    async (name) => {
      const dir = await nearlyFull(64 * 1024);
      if (!dir) return;
      const s = soundSession();
      const comp = await soundComp(s, 10, 4);
      await addSound(s, comp, await tone(await tempDir(), { freq: 440, seconds: 4 }));
      await run(s, 'renderQueue.add', { comp, output: join(dir, name) });
      const r = await run<{ items: Array<{ status: string; error?: { code: string } }> }>(
        s,
        'renderQueue.render',
      );
      expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'io_error' } });
      expect(await listDir(dir)).toEqual(['fill']);
    },
  );
});
