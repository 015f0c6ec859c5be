import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, listDir, queueSession, run } from '../../helpers/queue.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import type { FileTracker } from '../../../src/render/queue/tracker.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';

describe('crash recovery', () => {
  it.each(['throw-at-6', 'exit-at-6'])(
    'a renderer failure (%s) fails the item, cleans up, and renders again',
    async (name) => {
      const dir = await tempDir();
      const s = queueSession();
      const bad = await addComp(s, { name });
      const good = await addComp(s, { name: 'fine' });
      await run(s, 'renderQueue.add', { comp: bad, output: join(dir, 'bad_[##].png') });
      await run(s, 'renderQueue.add', { comp: good, output: join(dir, 'good_[##].png') });
      const r = await run<JobResult>(s, 'renderQueue.render', {});
      expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'render_failed' } });
      expect(r.items[1]!.status).toBe('done');
      expect(await listDir(dir)).toEqual([
        'good.png.manifest.json',
        ...Array.from({ length: 10 }, (_, i) => `good_0${i}.png`),
      ]);
      expect(s.renderQueue.running).toBe(false);
      await run(s, 'renderQueue.remove', { id: r.items[0]!.id });
      expect((await run<JobResult>(s, 'renderQueue.render', {})).completed).toBe(1);
    },
  );

  itWithFfmpeg('ffmpeg killed mid-render fails the item and removes its temporary', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'slow', duration: 4, width: 64, height: 36 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'v.mp4') });
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    let killed = false;
    const off = s.renderQueue.onProgress((p) => {
      if (killed || p.framesDone < 5) return;
      killed = true;
      // The only ffmpeg writing into this test's folder: find it by its output argument.
      const pids = execFileSync('pgrep', ['-f', `ffmpeg.*${dir}`])
        .toString()
        .trim()
        .split('\n');
      for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
    });
    const r = await job;
    off();
    if (!r.ok) throw new Error(r.error.code);
    expect(killed).toBe(true);
    expect(r.result.items[0]).toMatchObject({ status: 'failed', error: { code: 'render_failed' } });
    expect(await listDir(dir)).toEqual([]);
    const again = await run<JobResult>(s, 'renderQueue.render', {});
    expect(again.completed).toBe(1);
    expect(await listDir(dir)).toEqual(['v.mp4', 'v.mp4.manifest.json']);
  });

  it('a custom exporter that throws fails its item; its tracked files are removed', async () => {
    const dir = await tempDir();
    const s = queueSession();
    let tracker: FileTracker | undefined;
    s.renderQueue.registerExporter('png', (ctx) => {
      tracker = ctx.tracker;
      let n = 0;
      return {
        payload: { kind: 'png', level: 1 },
        ordered: false,
        prepare: async () => new Set<number>(),
        async writeFrame(frame, data) {
          if (++n === 4) throw new Error('disk on fire');
          await ctx.tracker.writeFile(join(dir, `c_${frame}.png`), data);
        },
        finish: async () => [],
        abort: async () => undefined,
      };
    });
    const comp = await addComp(s, { name: 'c' });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'c_[##].png') });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'render_failed' } });
    expect(tracker!.paths).toEqual([]);
    expect(await listDir(dir)).toEqual([]);
  });
});
