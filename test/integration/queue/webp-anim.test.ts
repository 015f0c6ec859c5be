// Animated WebP must show each frame as rendered: no trails of moving objects left by inter-frame blending
// (libwebp_anim's lossy sub-frames did that, up to 65 levels), opaque or with alpha, and no merged frames.
import { describe, expect } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { createSession, type Session } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const W = 160;
const H = 90;
const FRAMES = 30;
const MID = 20;
// The box (20x30) moves along y 60 from x 10 to x 150 over the clip; x of its centre at `frame`.
const boxX = (frame: number) => 10 + (140 * frame) / FRAMES;

/** A comp with a static background (opaque, or none for alpha) and a box moving left to right. */
async function movingBox(s: Session): Promise<string> {
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    name: 'Move',
    width: W,
    height: H,
    frameRate: 30,
    duration: 1,
    backgroundColor: '#204060',
  });
  const { id: box } = await run<{ id: string }>(s, 'layer.addShape', {
    comp,
    shape: { type: 'rectangle', size: [20, 30] },
    fill: '#ffcc00',
  });
  await run(s, 'property.setKeyframe', {
    layer: box,
    property: 'transform.position',
    time: 0,
    value: [10, 60],
  });
  await run(s, 'property.setKeyframe', {
    layer: box,
    property: 'transform.position',
    time: 1,
    value: [150, 60],
  });
  return comp;
}

/** Largest per-channel difference over the box's path (rows 40..80) away from where the box is at `frame`. */
function maxBackgroundDiff(a: Buffer, b: Buffer, frame: number, channels: number): number {
  let worst = 0;
  for (let y = 40; y < 80; y++)
    for (let x = 0; x < W; x++) {
      if (Math.abs(x - boxX(frame)) < 20) continue;
      for (let c = 0; c < channels; c++) {
        const i = (y * W + x) * channels + c;
        worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
      }
    }
  return worst;
}

async function render(alpha: boolean): Promise<{ png: string; webp: string }> {
  const dir = await tempDir();
  const s = createSession({ renderQueue: { maxWorkers: 2 } });
  const comp = await movingBox(s);
  await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[##].png'), alpha });
  await run(s, 'renderQueue.add', { comp, output: join(dir, 'a.webp'), format: 'webp-anim', alpha });
  const r = await run<JobResult>(s, 'renderQueue.render', {});
  expect(r.completed).toBe(2);
  return { png: join(dir, `f_${MID}.png`), webp: join(dir, 'a.webp') };
}

describe('animated WebP (real renderer)', () => {
  itWithFfmpeg.each([false, true])(
    'a middle frame matches the PNG render of that frame over the background (alpha: %s)',
    async (alpha) => {
      const { png, webp } = await render(alpha);
      const meta = await sharp(webp).metadata();
      expect(meta.pages).toBe(FRAMES);
      // An opaque render says so: readers that trust the alpha flag (a browser compositing it, a tool
      // converting it) otherwise treat every frame as translucent.
      expect(meta.hasAlpha).toBe(alpha);
      const ref = await sharp(png).ensureAlpha().raw().toBuffer();
      const got = await sharp(webp, { page: MID }).ensureAlpha().raw().toBuffer();
      expect(got.length).toBe(ref.length);
      // Lossy WebP differs by a few levels on flat colour; a trail of the box differed by up to 65.
      expect(maxBackgroundDiff(got, ref, MID, 4)).toBeLessThanOrEqual(8);
    },
  );
});
