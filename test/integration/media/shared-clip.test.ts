/**
 * One clip shown twice at different times (a copy offset in time, a precomp used twice): each copy reads on in
 * a decoder of its own, where one decoder sought back for every other frame (with one key frame per clip, a
 * decode from the start each time).
 */
import { expect } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip } from '../../helpers/media.js';
import { mediaRenderer, shownFramesAt } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

describeWithFfmpeg('a clip shown twice at once', () => {
  itWithFfmpeg.each([
    ['far apart', 40],
    ['close together', 4],
  ])('copies %s (%i frames) each show their frame, each reading on', async (_, offset) => {
    const clip = await numberedClip(await tempDir(), 'h264', '25', 100, {
      extra: ['-g', '1000', '-sc_threshold', '0'],
    });
    const engine = newEngine();
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 128,
      height: 48,
      frameRate: 25,
      duration: 2,
    });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
    for (const [x, start] of [
      [32, 0],
      [96, -offset / 25],
    ]) {
      const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
      await run(engine, 'property.set', { layer, property: 'transform.position', value: [x, 24] });
      await run(engine, 'layer.setTiming', { layer, startTime: start });
    }
    let started = 0;
    const renderer = await mediaRenderer((_pid, alive) => void (alive && started++), { frameCacheBytes: 1 });
    const [left, right] = await shownFramesAt(renderer, engine.document, comp, 25, 50, [
      [32, 24],
      [96, 24],
    ]);
    expect(left).toEqual(Array.from({ length: 50 }, (_, k) => k));
    expect(right).toEqual(Array.from({ length: 50 }, (_, k) => k + offset));
    // A decoder for each copy (and, close together, one to get past the first); one decoder sought every
    // frame for one of the copies (50 and more).
    expect(started).toBeLessThanOrEqual(4);
  });
});
