/**
 * A phone's portrait photo is a landscape JPEG with EXIF Orientation 6 ("turn 90° clockwise"). It imports at the
 * size it is shown (48x64 for 64x48 stored) and is drawn upright, as browsers, ffmpeg and After Effects show it:
 * as a still (frame.save) and as the frames of an image sequence (a final render, in the render workers).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];

/**
 * A 64x48 JPEG stored with red, green / blue, white quarters and EXIF Orientation 6. Shown, it is 48x64 with
 * blue, red / white, green quarters (the stored picture turned a quarter clockwise).
 */
async function sidewaysJpeg(path: string): Promise<void> {
  const w = 64;
  const h = 48;
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const c = y < h / 2 ? (x < w / 2 ? RED : GREEN) : x < w / 2 ? BLUE : WHITE;
      px.set(c, (y * w + x) * 3);
    }
  await sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .toFile(path);
}

/** The colours at the centres of the four quarters of a 48x64 PNG: top-left, top-right, bottom-left, bottom-right. */
async function quarters(path: string): Promise<number[][]> {
  const { data, info } = await sharp(path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([48, 64]);
  return [
    [12, 16],
    [36, 16],
    [12, 48],
    [36, 48],
  ].map(([x, y]) => [...data.subarray((y! * 48 + x!) * 3, (y! * 48 + x!) * 3 + 3)]);
}

function expectColours(found: number[][], expected: number[][]): void {
  for (const [i, c] of expected.entries())
    for (const [k, v] of c.entries()) expect(Math.abs(found[i]![k]! - v)).toBeLessThan(24);
}

const UPRIGHT = [BLUE, RED, WHITE, GREEN];

async function portraitComp(s: ReturnType<typeof trackedSession>, path: string): Promise<string> {
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: 48,
    height: 64,
    frameRate: 30,
    duration: 0.1,
  });
  const imported = await run<FootageItem>(s, 'file.import', { path, sequence: path.includes('seq') });
  expect(imported).toMatchObject({ width: 48, height: 64, media: { rotation: 90 } });
  await run(s, 'layer.addFootage', { comp, footage: imported.id });
  return comp;
}

describe('EXIF orientation of stills', () => {
  it('imports a JPEG with Orientation 6 at its shown size and draws it upright', async () => {
    const dir = await tempDir();
    const photo = join(dir, 'phone.jpg');
    await sidewaysJpeg(photo);
    const s = trackedSession();
    const comp = await portraitComp(s, photo);
    const out = join(dir, 'frame.png');
    await run(s, 'frame.save', { comp, time: 0, path: out });
    expectColours(await quarters(out), UPRIGHT);
  });

  it('imports a sequence of such JPEGs at the shown size and renders its frames upright', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'seq'));
    for (const n of [1, 2, 3]) await sidewaysJpeg(join(dir, 'seq', `f_000${n}.jpg`));
    const s = trackedSession();
    const comp = await portraitComp(s, join(dir, 'seq', 'f_0001.jpg'));
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'out', 'f_[##].png') });
    const job = await run<JobResult>(s, 'renderQueue.render', {});
    expect(job.items[0]!.error).toBeUndefined();
    expectColours(await quarters(join(dir, 'out', 'f_02.png')), UPRIGHT);
  });
});
