/**
 * The scrub cache, with the machine's ffmpeg: after a preview's seek, a background decoder keeps the clip's
 * frames as JPEGs, and later seeks of previews are served from them without a new ffmpeg; final renders
 * (no scrubCache option) still seek with a decoder of their own and get the exact frame. Clips are numbered
 * (frame N is a flat colour naming N), so a pixel says which frame was shown.
 */
import { expect } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import type { FrameRenderer } from '../../../src/render/types.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { frameColor, frameOf, numberedClip } from '../../helpers/media.js';
import { mediaRenderer } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

const FPS = 30;

/** Every decoder child the renderer starts, and those still alive. */
function childWatch() {
  const alive = new Set<number>();
  let started = 0;
  return {
    onChild: (pid: number, up: boolean) => {
      if (up) started++;
      if (up) alive.add(pid);
      else alive.delete(pid);
    },
    get started() {
      return started;
    },
    alive,
    /**
     * Resolves once at most `n` children are alive and no new one has started for 0.6 s (between two runs,
     * none is alive for a moment: on a loaded machine that moment reached 0.3 s).
     */
    async settle(n: number, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (let quiet = 0, seen = started; quiet < 20; quiet++) {
        if (alive.size > n || started !== seen) [quiet, seen] = [-1, started];
        if (Date.now() > end) throw new Error(`${alive.size} decoders still alive`);
        await new Promise((r) => setTimeout(r, 30));
      }
    },
  };
}

async function clipComp(engine: Engine, frames: number, size = '64x48') {
  const path = await numberedClip(await tempDir(), 'h264', String(FPS), frames, { size });
  const [w, h] = size.split('x').map(Number);
  const comp = await run<{ id: string }>(engine, 'comp.new', {
    width: w,
    height: h,
    frameRate: FPS,
    duration: frames / FPS,
  });
  const footage = await run<{ id: string }>(engine, 'file.import', { path });
  await run(engine, 'layer.addFootage', { comp: comp.id, footage: footage.id });
  return comp.id;
}

/** The centre pixel of the frame at source frame `n`, rendered as previews (scrub) or as final renders. */
async function pixelAt(renderer: FrameRenderer, engine: Engine, comp: string, n: number, scrub: boolean) {
  const f = await renderer.renderFrame(engine.document, comp, (n + 0.25) / FPS, {
    missingFootage: 'fail',
    scrubCache: scrub,
  });
  const i = (Math.floor(f.height / 2) * f.width + Math.floor(f.width / 2)) * 4;
  return [f.rgba[i]!, f.rgba[i + 1]!, f.rgba[i + 2]!] as [number, number, number];
}

describeWithFfmpeg('the scrub cache', () => {
  itWithFfmpeg('serves later seeks of previews from kept JPEGs, without a new ffmpeg', async () => {
    const engine = newEngine();
    const comp = await clipComp(engine, 150);
    const children = childWatch();
    const renderer = await mediaRenderer(children.onChild, { scrubCacheBytes: 64 * 1024 * 1024 });

    // The first seek misses: a run starts there and shows it.
    expect(frameOf(...(await pixelAt(renderer, engine, comp, 100, true)))).toBe(100);
    expect(children.started).toBe(1);
    // The run covers 100-149, then another fills 0-99.
    await children.settle(0);
    const started = children.started;

    for (const n of [0, 30, 10, 60, 99, 45]) {
      const [r, g, b] = await pixelAt(renderer, engine, comp, n, true);
      expect(frameOf(r, g, b)).toBe(n);
      // A JPEG at ffmpeg's finest quality: a flat colour within a few levels.
      const [er, eg, eb] = frameColor(n);
      expect(Math.max(Math.abs(r - er), Math.abs(g - eg), Math.abs(b - eb))).toBeLessThanOrEqual(4);
    }
    expect(children.started).toBe(started);

    // A final render's seek never uses it: a decoder of its own.
    expect(frameOf(...(await pixelAt(renderer, engine, comp, 40, false)))).toBe(40);
    expect(children.started).toBe(started + 1);
  });

  itWithFfmpeg(
    'a preview takes a kept frame rather than reading a live decoder on through the frames before it',
    async () => {
      const engine = newEngine();
      const comp = await clipComp(engine, 150);
      const children = childWatch();
      const renderer = await mediaRenderer(children.onChild, { scrubCacheBytes: 64 * 1024 * 1024 });
      expect(frameOf(...(await pixelAt(renderer, engine, comp, 100, true)))).toBe(100);
      await children.settle(0);
      // A final render's frame 40: a decoder of its own, which reads on to 41 next.
      expect(frameOf(...(await pixelAt(renderer, engine, comp, 40, false)))).toBe(40);
      const started = children.started;
      // A preview 30 frames on is kept: it comes from its JPEG, and the decoder stays where it was (reading on
      // to it decoded the 29 frames between, 100-300 ms at 1080p)...
      expect(frameOf(...(await pixelAt(renderer, engine, comp, 70, true)))).toBe(70);
      // ...so the final render's next frame is read on, with no new decoder.
      expect(frameOf(...(await pixelAt(renderer, engine, comp, 41, false)))).toBe(41);
      expect(children.started).toBe(started);
    },
  );

  itWithFfmpeg('a budget smaller than the clip keeps a part of it; seeks outside it decode', async () => {
    const engine = newEngine();
    // 320x240 frames are a few kB each as JPEG: 40 kB keeps a handful.
    const comp = await clipComp(engine, 90, '320x240');
    const children = childWatch();
    const renderer = await mediaRenderer(children.onChild, { scrubCacheBytes: 40 * 1024 });
    expect(frameOf(...(await pixelAt(renderer, engine, comp, 80, true)))).toBe(80);
    await children.settle(0);
    const started = children.started;
    // The run kept 80-89, then filled from frame 0 until the budget was used: frame 60 is not kept.
    expect(frameOf(...(await pixelAt(renderer, engine, comp, 60, true)))).toBe(60);
    expect(children.started).toBeGreaterThan(started);
  });

  itWithFfmpeg('dispose ends a background run at once', async () => {
    const engine = newEngine();
    const comp = await clipComp(engine, 240, '320x240');
    const children = childWatch();
    const renderer = await mediaRenderer(children.onChild, { scrubCacheBytes: 256 * 1024 * 1024 });
    await pixelAt(renderer, engine, comp, 10, true);
    expect(children.alive.size).toBe(1);
    renderer.dispose();
    await children.settle(0, 5000);
    expect(children.alive.size).toBe(0);
  });
});
