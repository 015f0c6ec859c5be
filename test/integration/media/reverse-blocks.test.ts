/**
 * Footage read backwards: a reversed layer asks each frame for the one before the last, which needs a seek.
 * With one key frame for the whole clip (a long GOP, as x264's default of 250 frames gives most clips), a seek
 * per frame decoded the clip up to that frame every time. Blocks of frames decoded together keep the decoders
 * few, and every frame still shows the source frame the time map picks.
 */
import { expect } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip } from '../../helpers/media.js';
import { mediaRenderer, shownFrame, shownFramesAt } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

const FRAMES = 100;

/** A 25 fps numbered clip of `frames` frames at `size` with a single key frame. */
async function longGopClip(frames: number, size: string): Promise<string> {
  return numberedClip(await tempDir(), 'h264', '25', frames, {
    size,
    // Tagged with the matrix ffmpeg converted it with: an untagged HD clip would be read as BT.709.
    extra: ['-g', '1000', '-keyint_min', '1000', '-sc_threshold', '0', '-colorspace', 'smpte170m'],
  });
}

/** A 25 fps comp showing a 100-frame clip with a single key frame, at `size` (the clip's size too). */
async function reversedComp(
  size: [number, number],
): Promise<{ engine: Engine; comp: string; layer: string }> {
  const clip = await longGopClip(FRAMES, `${size[0]}x${size[1]}`);
  const engine = newEngine();
  const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
    width: size[0],
    height: size[1],
    frameRate: 25,
    duration: FRAMES / 25,
  });
  const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
  const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
  await run(engine, 'layer.setTimeMap', { layer, speed: -1 });
  return { engine, comp, layer };
}

describeWithFfmpeg('footage read backwards', () => {
  itWithFfmpeg.each([
    ['64x48', [64, 48]],
    // 1280x720 RGBA frames are 3.7 MB: a block holds 27 of them, so the 100 frames take four blocks.
    ['1280x720', [1280, 720]],
  ] as const)('a reversed %s clip shows every frame it should, through a few decoders', async (_, size) => {
    const { engine, comp } = await reversedComp([size[0], size[1]]);
    let started = 0;
    const renderer = await mediaRenderer((_pid, alive) => void (alive && started++));
    const shown: number[] = [];
    for (let k = 0; k < FRAMES; k++) shown.push(await shownFrame(renderer, engine.document, comp, k / 25));
    // Reversed from the last frame (time-map.ts): comp frame k shows source frame 99 - k.
    expect(shown).toEqual(Array.from({ length: FRAMES }, (_, k) => FRAMES - 1 - k));
    // One decoder for the first frame, then one per block: a block holds 48 frames at most (or 96 MB), one of
    // them the frame above it, asked last. A seek per frame was 100.
    const block = Math.min(48, Math.floor((96 * 2 ** 20) / (size[0] * size[1] * 4)));
    expect(started).toBe(1 + Math.ceil((FRAMES - 1) / (block - 1)));
  });

  itWithFfmpeg('two clips read backwards at once share the blocks and each shows its frames', async () => {
    const engine = newEngine();
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 1280,
      height: 360,
      frameRate: 25,
      duration: 2,
    });
    // Two clips of different lengths, side by side at half size, both reversed.
    for (const [frames, x] of [
      [60, 320],
      [70, 960],
    ] as const) {
      const { id: footage } = await run<{ id: string }>(engine, 'file.import', {
        path: await longGopClip(frames, '1280x720'),
      });
      const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
      await run(engine, 'property.set', { layer, property: 'transform.position', value: [x, 180] });
      await run(engine, 'property.set', { layer, property: 'transform.scale', value: [50, 50] });
      await run(engine, 'layer.setTimeMap', { layer, speed: -1 });
    }
    let started = 0;
    const renderer = await mediaRenderer((_pid, alive) => void (alive && started++));
    const [left, right] = await shownFramesAt(renderer, engine.document, comp, 25, 50, [
      [320, 180],
      [960, 180],
    ]);
    expect(left).toEqual(Array.from({ length: 50 }, (_, k) => 59 - k));
    expect(right).toEqual(Array.from({ length: 50 }, (_, k) => 69 - k));
    // Each clip's blocks hold half the bytes once both read backwards (13 frames of 3.7 MB, the first block of
    // the first clip more): a first decoder and at most 5 blocks each, where a seek per frame was 100.
    expect(started).toBeGreaterThanOrEqual(2 * (1 + Math.ceil(49 / 26)));
    expect(started).toBeLessThanOrEqual(2 * (1 + Math.ceil(49 / 12)));
  });

  itWithFfmpeg('a reversed clip with frame blending reads its frame pairs from the blocks', async () => {
    const clip = await longGopClip(FRAMES, '64x48');
    const engine = newEngine();
    // 30 fps over a 25 fps clip: most comp frames fall between two source frames, and mix both.
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 3,
    });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
    const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
    await run(engine, 'layer.setTimeMap', { layer, speed: -1, frameBlending: true });
    let started = 0;
    const renderer = await mediaRenderer((_pid, alive) => void (alive && started++), { frameCacheBytes: 1 });
    for (let k = 0; k < 90; k++)
      await renderer.renderFrame(engine.document, comp, k / 30, { missingFootage: 'fail' });
    // The pairs step back through 75 source frames: a few blocks of 48, not a decoder a frame or two.
    expect(started).toBeLessThanOrEqual(4);
  });

  itWithFfmpeg('steps back, jumps back and forward again each show the frame asked', async () => {
    const { engine, comp, layer } = await reversedComp([64, 48]);
    await run(engine, 'layer.setTimeMap', { layer, speed: 1 });
    const renderer = await mediaRenderer();
    const at = async (frames: number[]) => {
      const out: number[] = [];
      for (const f of frames) out.push(await shownFrame(renderer, engine.document, comp, f / 25));
      return out;
    };
    // Forward, a step back (a block), within it, a jump back past the step limit (a seek), forward again
    // past the block, and back into a block that was replaced.
    const frames = [10, 60, 59, 57, 58, 30, 31, 99, 98, 97, 5, 4, 61];
    expect(await at(frames)).toEqual(frames);
  });
});
