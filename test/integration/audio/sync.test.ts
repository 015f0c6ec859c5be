// Picture and sound stay in sync: a white flash at frame N of the composition and a click the layers put at
// N / fps land in the same place of the output, within one audio frame (1024 samples, AAC's frame), for a
// start offset, an in point, a speed and an item that starts mid-composition.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Session } from '../../../src/session.js';
import { click, decodeSound, ffmpegBytes, firstLoud, RATE } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, setTimeMap, soundComp, soundSession } from './sound-helpers.js';

const FPS = 30;
const SIZE = 32;
const FLASH = 37;
/** AAC's frame: the coarsest step of any output's sound. */
const AUDIO_FRAME = 1024;

/** A white solid visible for exactly frame `n` (hold keyframes on opacity). */
async function flashAt(s: Session, comp: string, n: number): Promise<void> {
  const { id: layer } = await run<{ id: string }>(s, 'layer.addSolid', { comp, color: '#ffffff' });
  const key = (time: number, value: number) =>
    run(s, 'property.setKeyframe', { comp, layer, property: 'opacity', time, value, interpolation: 'hold' });
  await key(0, 0);
  await key(n / FPS, 100);
  await key((n + 1) / FPS, 0);
}

/** The index of the first decoded frame that is mostly white. */
async function flashFrame(path: string): Promise<number> {
  const bytes = await ffmpegBytes(['-i', path, '-map', '0:v:0', '-f', 'rawvideo', '-pix_fmt', 'gray', '-']);
  const frame = SIZE * SIZE;
  for (let i = 0; i * frame < bytes.length; i++) {
    let sum = 0;
    for (let k = i * frame; k < (i + 1) * frame; k++) sum += bytes[k]!;
    if (sum / frame > 128) return i;
  }
  return -1;
}

async function expectInSync(path: string, expectedFrame: number): Promise<void> {
  const frame = await flashFrame(path);
  expect(frame).toBe(expectedFrame);
  const sample = firstLoud(await decodeSound(path));
  expect(sample).toBeGreaterThanOrEqual(0);
  expect(Math.abs(sample - (frame / FPS) * RATE)).toBeLessThanOrEqual(AUDIO_FRAME);
}

describe('A/V sync', () => {
  itWithFfmpeg.each(['mp4', 'mov', 'webm'])(
    '%s: a click at frame N is heard at frame N (start offset, in point, speed, mid-comp item)',
    async (ext) => {
      const dir = await tempDir();
      const s = soundSession();
      const comp = await soundComp(s, FPS, 2, SIZE);
      await flashAt(s, comp, FLASH);
      // The click is 0.4 s into its file; the layer starts so that it falls on frame FLASH, and its in point
      // (0.9 s) cuts nothing of it.
      const layer = await addSound(s, comp, await click(dir, 0.4, 1.5), {
        startTime: FLASH / FPS - 0.4,
        inPoint: 0.9,
        outPoint: 2,
      });
      const out = join(dir, `sync.${ext}`);
      expect((await renderTo(s, comp, out)).completed).toBe(1);
      await expectInSync(out, FLASH);
      // At speed 2 the click comes 0.2 s after the layer's start.
      await run(s, 'layer.setTiming', { comp, layer, startTime: FLASH / FPS - 0.2 });
      await setTimeMap(s, dir, layer, { speed: 2, loop: false, freezeAt: null });
      await renderTo(s, comp, out);
      await expectInSync(out, FLASH);
      // An item starting at frame 20: the flash is its frame FLASH - 20, and so is the click.
      await renderTo(s, comp, out, { frameRange: { start: 20, end: 59 } });
      await expectInSync(out, FLASH - 20);
    },
  );
});
