/**
 * An edit: clips shown one after another, each cut before its end. A shot's decoder is left waiting mid-file
 * when the shot ends; it used to live until the renderer closed, so a render held one ffmpeg per shot (a 16-shot
 * 1080p edit: 17 processes and 2.3 GB at its end). Decoders no frame has read for a while now end.
 */
import { expect } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip } from '../../helpers/media.js';
import { mediaRenderer, shownFrame, shownFramesAt } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

describeWithFfmpeg('decoders of clips no longer shown', () => {
  itWithFfmpeg('end, so an edit of many shots runs a bounded number of ffmpeg processes', async () => {
    const shots = 8;
    const length = 30; // frames a shot, of clips 200 frames long
    const engine = newEngine();
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 25,
      duration: ((shots + 1) * length) / 25,
    });
    const clips: string[] = [];
    for (let i = 0; i < shots; i++) {
      const clip = await numberedClip(await tempDir(), 'h264', '25', 200);
      const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
      clips.push(footage);
    }
    // Shot k shows its clip from frame 10 on; the last shot is the first clip again, later in it.
    const place = async (footage: string, k: number, from: number) => {
      const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
      const at = (k * length) / 25;
      await run(engine, 'layer.setTiming', {
        layer,
        startTime: at - from / 25,
        inPoint: at,
        outPoint: at + length / 25,
      });
    };
    for (let k = 0; k < shots; k++) await place(clips[k]!, k, 10);
    await place(clips[0]!, shots, 100);

    let live = 0;
    let most = 0;
    const renderer = await mediaRenderer((_pid, alive) => {
      live += alive ? 1 : -1;
      most = Math.max(most, live);
    });
    const [shown] = await shownFramesAt(renderer, engine.document, comp, 25, (shots + 1) * length, [
      [32, 24],
    ]);
    const expected = Array.from({ length: (shots + 1) * length }, (_, f) =>
      f < shots * length ? 10 + (f % length) : 100 + (f % length),
    );
    expect(shown).toEqual(expected);
    // The shot being drawn, the two that ended within the last 60 frames, and one ended as the new one starts
    // (its exit is told a moment later): one for each shot (9) before.
    expect(most).toBeLessThanOrEqual(4);
  });

  itWithFfmpeg(
    'at most six run at once when frames jump between clips, each read on where it was',
    async () => {
      // Ten one-second shots of ten clips; frames visited shot by shot, three rounds, each a few frames further
      // into every shot: without a cap every clip kept its decoder (each could still read on), ten at once.
      const shots = 10;
      const engine = newEngine();
      const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
        width: 64,
        height: 48,
        frameRate: 25,
        duration: shots,
      });
      for (let k = 0; k < shots; k++) {
        const clip = await numberedClip(await tempDir(), 'h264', '25', 100);
        const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
        const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
        await run(engine, 'layer.setTiming', { layer, startTime: k, inPoint: k, outPoint: k + 1 });
      }
      let live = 0;
      let most = 0;
      const renderer = await mediaRenderer((_pid, alive) => {
        live += alive ? 1 : -1;
        most = Math.max(most, live);
      });
      for (const at of [2, 9, 16])
        for (let k = 0; k < shots; k++) {
          expect(await shownFrame(renderer, engine.document, comp, k + (at + 0.25) / 25)).toBe(at);
          // A decoder ended is told of when its process exits, later on a loaded machine: each frame waits
          // for the count to come back under the cap (it never does if decoders are not ended).
          for (let waited = 0; live > 6 && waited < 5_000; waited += 20)
            await new Promise((r) => setTimeout(r, 20));
          expect(live).toBeLessThanOrEqual(6);
        }
      // Six, and one ended as the next starts (its exit is told a moment later).
      expect(most).toBeLessThanOrEqual(7);
    },
  );

  itWithFfmpeg(
    'a grid of more clips than that keeps them all, and a clip entering it costs one decoder',
    async () => {
      // Eight clips side by side all the time; a ninth takes the first one's place at frame 10. Each frame reads
      // all eight: none may be ended for the newcomer (each would seek again, ending the next in turn).
      const engine = newEngine();
      const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
        width: 256,
        height: 96,
        frameRate: 25,
        duration: 20 / 25,
      });
      const place = async (cell: number, inPoint: number, outPoint: number) => {
        const clip = await numberedClip(await tempDir(), 'h264', '25', 60);
        const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
        const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
        const [x, y] = [32 + 64 * (cell % 4), 24 + 48 * Math.floor(cell / 4)];
        await run(engine, 'property.set', { layer, property: 'transform.position', value: [x, y] });
        await run(engine, 'layer.setTiming', { layer, startTime: 0, inPoint, outPoint });
      };
      for (let cell = 0; cell < 8; cell++) await place(cell, 0, cell === 0 ? 10 / 25 : 20 / 25);
      await place(0, 10 / 25, 20 / 25);
      let started = 0;
      const renderer = await mediaRenderer((_pid, alive) => void (alive && started++));
      const points = Array.from(
        { length: 8 },
        (_, cell) => [32 + 64 * (cell % 4), 24 + 48 * Math.floor(cell / 4)] as const,
      );
      const shown = await shownFramesAt(renderer, engine.document, comp, 25, 20, points);
      for (const frames of shown) expect(frames).toEqual(Array.from({ length: 20 }, (_, f) => f));
      expect(started).toBe(9);
    },
  );
});
