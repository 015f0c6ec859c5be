// An MP4 cut without re-encoding (ffmpeg -ss 0.5 -c copy) keeps the frames from the key frame before the cut
// and an edit list that discards them: 90 frames stored, 75 shown. Counted as 90 in 2.5 s, the clip was taken
// for variable-rate, and played backwards it asked for frames the decoder never gives ("damaged or cut short").
// The frames shown are the packets the edit list does not discard. A phone clip (a display matrix: stream side
// data, after which ffprobe prints the time base line "1/15360,") still counted 90 and failed backwards the same
// way: the packet scan never found its time base.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer, shownFrame } from '../../helpers/media-render.js';
import { numberedClip } from '../../helpers/media.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);

/**
 * A 30 fps numbered 90-frame MP4 (a key frame each second) cut at 0.5 s without re-encoding; `rotate`: with a
 * display matrix turning it that much, as a phone's clip has.
 */
async function cutClip(rotate = 0, rate = '30', frames = 90, at = '0.5', bFrames = 0): Promise<string> {
  const extra = ['-g', rate, ...(bFrames ? ['-bf', String(bFrames)] : [])];
  const whole = await numberedClip(await tempDir(), 'h264', rate, frames, { extra });
  const cut = whole.replace(/\.mp4$/, '-cut.mp4');
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-ss',
    at,
    '-i',
    whole,
    '-c',
    'copy',
    ...(rotate ? ['-metadata:s:v', `rotate=${rotate}`] : []),
    cut,
  ]);
  return cut;
}

describeWithFfmpeg('an MP4 with an edit list', () => {
  itWithFfmpeg.each([
    ['', 0],
    [' (a phone clip turned 180°: side data)', 180],
  ])('counts the 75 frames it shows, at a constant rate, and plays them backwards%s', async (_, rotate) => {
    const clip = await cutClip(rotate);
    const engine = newEngine();
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 2.5,
    });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
    const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
    const item = engine.document.items.find((i) => i.id === footage) as FootageItem;
    expect(item.media).toMatchObject({ frameCount: 75, variableFrameRate: false, rotation: rotate });
    expect(item.media!.duration).toBeCloseTo(2.5, 3);
    const renderer = await mediaRenderer();
    const at = (t: number) => shownFrame(renderer, engine.document, comp, t);
    // Forward: the cut's first frame is source frame 15.
    expect([await at(0), await at(1), await at(74 / 30)]).toEqual([15, 45, 89]);
    // Backwards over the layer: comp frame k shows source frame 89 - k, down to 15.
    await run(engine, 'layer.setTimeMap', { layer, speed: -1 });
    const shown: number[] = [];
    for (let k = 0; k < 75; k++) shown.push(await at(k / 30));
    expect(shown).toEqual(Array.from({ length: 75 }, (_, k) => 89 - k));
  });
});

describeWithFfmpeg('an MP4 cut mid-frame, whose edit list states more than its frames', () => {
  // ffmpeg -ss 1.3 -c copy of a 25 fps clip starts the edit list at 1.3 s and states 2.70 s, but the first frame
  // it shows is frame 33 (1.32 s): 67 frames, 2.68 s. Reversed from the stated end minus a frame (2.66 s, no
  // frame's time), a reversed layer in a 30 fps composition showed the frame after the right one on 3 of its
  // 80 frames (10 of 210 for a 7.7 s clip at 29.97 fps).
  itWithFfmpeg('plays backwards from its last frame', async () => {
    const clip = await cutClip(0, '25', 100, '1.3', 3);
    const engine = newEngine();
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 2.7,
    });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
    const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
    const item = engine.document.items.find((i) => i.id === footage) as FootageItem;
    expect(item.media).toMatchObject({ frameCount: 67, variableFrameRate: false });
    expect(item.media!.duration).toBeCloseTo(2.7, 3);
    const renderer = await mediaRenderer();
    const at = (t: number) => shownFrame(renderer, engine.document, comp, t);
    expect([await at(0), await at(66 / 25)]).toEqual([33, 99]);
    await run(engine, 'layer.setTimeMap', { layer, speed: -1 });
    // Comp frame k shows the frame nearest 2.64 s (the last frame's time) - k / 30 s, ties to the earlier one.
    const shown: number[] = [];
    const wanted: number[] = [];
    for (let k = 0; k < 80; k++) {
      shown.push(await at(k / 30));
      // (2.64 - k / 30) * 25 = (396 - 5k) / 6 frames; the nearest, half way going to the earlier: ceil(x - 1/2).
      wanted.push(33 + Math.max(0, Math.ceil((393 - 5 * k) / 6)));
    }
    expect(shown).toEqual(wanted);
  });
});
