/**
 * A clip whose data ends before its header says (a copy cut short, a render that was stopped): the frames it
 * has show as they are, and every later time holds its last frame, found without a decoder per frame (each
 * one sought past the end, found nothing, and read the file again from the start: ten times the render's time).
 */
import { truncate, stat } from 'node:fs/promises';
import { expect } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip } from '../../helpers/media.js';
import { mediaRenderer, shownFramesAt } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

describeWithFfmpeg('a clip cut short after its header', () => {
  itWithFfmpeg('shows the frames it has, then holds the last, with a decoder or two in all', async () => {
    // 300 frames, the index at the front (as a web export is): cut to a third, it still claims 300.
    const clip = await numberedClip(await tempDir(), 'h264', '30', 300, {
      extra: ['-movflags', '+faststart', '-g', '30'],
    });
    await truncate(clip, Math.floor((await stat(clip)).size / 3));
    const engine = newEngine();
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 10,
    });
    const { id: footage } = await run<{ id: string; media: { frameCount: number } }>(engine, 'file.import', {
      path: clip,
    });
    await run(engine, 'layer.addFootage', { comp, footage });
    let started = 0;
    const renderer = await mediaRenderer((_pid, alive) => void (alive && started++));
    const [shown] = await shownFramesAt(renderer, engine.document, comp, 30, 300, [[32, 24]]);
    const last = shown!.at(-1)!;
    expect(last).toBeGreaterThan(20);
    expect(last).toBeLessThan(290);
    // Every frame it has, in order, then the last one held.
    expect(shown).toEqual(Array.from({ length: 300 }, (_, k) => Math.min(k, last)));
    expect(started).toBeLessThanOrEqual(3);
  });
});
