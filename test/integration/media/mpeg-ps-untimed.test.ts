// MPEG-PS gives a presentation time only to the first picture that starts in each 2 KB pack, so a stream of
// small pictures (a slate, a title, flat graphics) has most of its packets without one. ffmpeg states its
// duration to the last time it found: 50 frames at 25 fps were imported as 1.44 s, taken for variable-rate,
// and drawn from the three times the packets had: frame 0 held for 10 frames, then frame 1 for 17, frame 2,
// then nothing after 1.44 s. Its frames are as far apart as its rate says (ffmpeg decodes them so), and a
// decoder that starts mid-clip reads it from its start and counts them.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer, shownFrame } from '../../helpers/media-render.js';
import { frameOf } from '../../helpers/media.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);

/** 50 numbered 64x48 frames at 25 fps (as helpers/media.ts draws them), MPEG-2 in MPEG-PS: 3 packets timed. */
async function smallPictures(): Promise<string> {
  const out = join(await tempDir(), 'slate.mpg');
  const source =
    "color=c=black:s=64x48:r=25,format=rgb24,geq=r='16+32*mod(N\\,8)':g='16+32*mod(floor(N/8)\\,8)':" +
    "b='16+32*floor(N/64)',trim=end_frame=50";
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source],
    ...['-c:v', 'mpeg2video', '-q:v', '2', '-f', 'vob', out],
  ]);
  return out;
}

describeWithFfmpeg('MPEG-PS whose packets mostly carry no time', () => {
  itWithFfmpeg(
    'lasts its 50 frames at 25 fps and shows each at its time, forwards and backwards',
    async () => {
      const clip = await smallPictures();
      const engine = newEngine();
      const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
        width: 64,
        height: 48,
        frameRate: 25,
        duration: 2,
      });
      const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
      const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
      const item = engine.document.items.find((i) => i.id === footage) as FootageItem;
      expect(item.media).toMatchObject({ frameCount: 50, frameRate: 25, variableFrameRate: false });
      expect(item.media!.duration).toBeCloseTo(2, 6);
      const renderer = await mediaRenderer();
      const frames = async () => {
        const shown: number[] = [];
        for (let k = 0; k < 50; k++) shown.push(await shownFrame(renderer, engine.document, comp, k / 25));
        return shown;
      };
      expect(await frames()).toEqual(Array.from({ length: 50 }, (_, k) => k));
      await run(engine, 'layer.setTimeMap', { layer, speed: -1 });
      expect(await frames()).toEqual(Array.from({ length: 50 }, (_, k) => 49 - k));
    },
  );

  itWithFfmpeg(
    'a decoder started mid-clip gives the frame asked (read from the start, counted)',
    async () => {
      // ffmpeg guesses the untimed packets' times, a frame off in places: a seek dropping frames by their times
      // gave frame 19 for 20 (a frame range starting there, a preview, a still).
      const clip = await smallPictures();
      const engine = newEngine();
      const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
        width: 64,
        height: 48,
        frameRate: 25,
        duration: 2,
      });
      const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
      await run(engine, 'layer.addFootage', { comp, footage });
      const asked = [20, 36, 12, 45, 30];
      const shown: number[] = [];
      // A renderer each: every frame is its first, so each starts a decoder there.
      for (const k of asked)
        shown.push(await shownFrame(await mediaRenderer(), engine.document, comp, k / 25));
      expect(shown).toEqual(asked);
      // Previews (the scrub cache, whose runs number their frames from where they start): the same frames.
      const previews = await mediaRenderer(undefined, { scrubCacheBytes: 64 * 1024 * 1024 });
      const previewed: number[] = [];
      for (const k of asked) {
        const f = await previews.renderFrame(engine.document, comp, k / 25, {
          missingFootage: 'fail',
          scrubCache: true,
        });
        const i = (24 * f.width + 32) * 4;
        previewed.push(frameOf(f.rgba[i]!, f.rgba[i + 1]!, f.rgba[i + 2]!));
      }
      expect(previewed).toEqual(asked);
    },
  );
});
