/**
 * A clip whose data ends before its header says (a copy cut short, a render that was stopped). A preview shows
 * the frames it has as they are, and every later time holds its last frame with a warning saying the file is
 * damaged, found without a decoder per frame (each one sought past the end, found nothing, and read the file
 * again from the start: ten times the render's time). A final render fails at the first frame well past the
 * end (a render "done" with a frozen tail would be a wrong video nobody was told of): still and video outputs.
 */
import { readdir, truncate, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createSession } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { run as qrun } from '../../helpers/queue.js';
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
    const warnings: string[] = [];
    const points = [[32, 24]] as const;
    const [shown] = await shownFramesAt(
      renderer,
      engine.document,
      comp,
      30,
      300,
      points,
      'placeholder',
      warnings,
    );
    const last = shown!.at(-1)!;
    expect(last).toBeGreaterThan(20);
    expect(last).toBeLessThan(290);
    // Every frame it has, in order, then the last one held.
    expect(shown).toEqual(Array.from({ length: 300 }, (_, k) => Math.min(k, last)));
    expect(started).toBeLessThanOrEqual(3);
    // Said from the first frame well past the end (0.5 s for this 10 s clip); nearer, it may be a short last
    // GOP, held quietly.
    const damaged = new RegExp(
      `decodes only up to frame ${last} \\(.*\\) of the 300 its file declares \\(10 s\\)`,
    );
    expect(warnings.length).toBeGreaterThan(100);
    expect(
      warnings.every((w) => damaged.test(w) && w.endsWith('Its last frame that decodes is shown.')),
    ).toBe(true);
    // As a final render draws: the frames it has, then the error, naming the file and the remedy.
    const fresh = await mediaRenderer();
    await expect(shownFramesAt(fresh, engine.document, comp, 30, 300, points)).rejects.toMatchObject({
      code: 'unsupported_format',
      message: expect.stringMatching(damaged) as unknown,
      remediation: expect.stringContaining('relink it to one (footage.relink)') as unknown,
    });
  });

  itWithFfmpeg(
    'fails a render to MP4 (the footage plate) and to PNG, leaving no file; frames it has render',
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '30', 90, {
        extra: ['-movflags', '+faststart', '-g', '15'],
      });
      await truncate(clip, Math.floor((await stat(clip)).size / 2));
      const s = createSession({ renderQueue: { maxWorkers: 1 } });
      await qrun(s, 'comp.new', { name: 'C', width: 64, height: 48, frameRate: 30, duration: 3 });
      const { id: footage } = await qrun<{ id: string }>(s, 'file.import', { path: clip });
      await qrun(s, 'layer.addFootage', { comp: 'C', footage });
      const out = join(dir, 'out');
      for (const output of [join(out, 'v.mp4'), join(out, 'f_[##].png')]) {
        await qrun(s, 'renderQueue.clear');
        await qrun(s, 'renderQueue.add', { comp: 'C', output });
        const r = await qrun<JobResult>(s, 'renderQueue.render');
        expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'unsupported_format' } });
        expect(r.items[0]!.error!.message).toMatch(/the file is damaged or cut short/);
        expect(await readdir(out).catch(() => [])).toEqual([]);
      }
      await qrun(s, 'renderQueue.clear');
      await qrun(s, 'renderQueue.add', {
        comp: 'C',
        output: join(out, 'v.mp4'),
        frameRange: { start: 0, end: 9 },
      });
      expect((await qrun<JobResult>(s, 'renderQueue.render')).completed).toBe(1);
    },
  );
});
