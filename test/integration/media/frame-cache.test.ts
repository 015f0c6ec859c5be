/**
 * The decoded-frame cache of a renderer with a budget smaller than one frame (a render worker's is one 1080p
 * frame): what the frame being drawn asked for is kept, so slow motion with frame blending, which asks for the
 * same pair of source frames over several comp frames, reads the clip once in order instead of seeking back.
 */
import { expect } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip } from '../../helpers/media.js';
import { mediaRenderer } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

describeWithFfmpeg('the decoded-frame cache', () => {
  itWithFfmpeg(
    'keeps the frame in progress whatever the budget: blended slow motion never seeks',
    async () => {
      const engine = newEngine();
      const path = await numberedClip(await tempDir(), 'h264', '24', 24);
      const comp = await run<{ id: string }>(engine, 'comp.new', {
        width: 64,
        height: 48,
        frameRate: 24,
        duration: 2,
      });
      const footage = await run<{ id: string }>(engine, 'file.import', { path });
      const layer = await run<{ id: string }>(engine, 'layer.addFootage', {
        comp: comp.id,
        footage: footage.id,
      });
      await run(engine, 'layer.setTimeMap', { layer: layer.id, speed: 0.25, frameBlending: true });
      let started = 0;
      const renderer = await mediaRenderer((_, up) => void (up && started++), { frameCacheBytes: 1 });
      // Comp frames 1-3 mix source frames 0 and 1, 5-7 mix 1 and 2, ...: each pair is asked for three times.
      for (let f = 0; f < 24; f++)
        await renderer.renderFrame(engine.document, comp.id, f / 24, { missingFootage: 'fail' });
      expect(started).toBe(1);
    },
  );
});
