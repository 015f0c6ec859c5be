// Items removed from the live queue during a job: the one rendering stops with exact cleanup, later ones
// are never rendered; both are left out of the result and counted as failed.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, listDir, queueSession, run } from '../../helpers/queue.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import type { Session } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';

/** Waits (no time limit but the test's) until item `id` has rendered at least one frame. */
async function untilRendering(s: Session, id: string): Promise<void> {
  for (;;) {
    const st = s.renderQueue.statusOf(id);
    if (st?.status === 'rendering' && st.framesDone > 0) return;
    if (st && st.status !== 'queued' && st.status !== 'rendering')
      throw new Error(`item ${id} is ${st.status}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('removal during a render', () => {
  it('stops the item being rendered and removes its files; a removed later item is not rendered', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'slow', duration: 4 });
    const a = await run<{ id: string }>(s, 'renderQueue.add', { comp, output: join(dir, 'a_[##].png') });
    const b = await run<{ id: string }>(s, 'renderQueue.add', { comp, output: join(dir, 'b_[##].png') });
    const c = await run<{ id: string }>(s, 'renderQueue.add', { comp, output: join(dir, 'c_[##].png') });
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    await untilRendering(s, a.id);
    await run(s, 'renderQueue.remove', { id: a.id });
    await run(s, 'renderQueue.remove', { id: b.id });
    const r = await job;
    if (!r.ok) throw new Error(r.error.code);
    expect(r.result.items.map((i) => i.id)).toEqual([c.id]);
    expect(r.result.completed).toBe(1);
    expect(r.result.failed).toBe(2);
    expect(r.result.removed).toEqual([a.id, b.id]);
    expect(r.result.note).toContain(a.id);
    // Only c's 40 frames and manifest: nothing of a (stopped, cleaned up) nor b (never rendered), no temporaries.
    const names = await listDir(dir);
    expect(names.filter((n) => !n.startsWith('c_'))).toEqual(['c.png.manifest.json']);
    expect(names).toHaveLength(41);
  });

  itWithFfmpeg(
    'stops an mp4 item removed mid-render: no video, no temporary, render possible again',
    async () => {
      const dir = await tempDir();
      const s = queueSession();
      const comp = await addComp(s, { name: 'slow', duration: 12, width: 64, height: 36 });
      const p = await run<{ id: string }>(s, 'renderQueue.add', {
        comp,
        output: join(dir, 'p_[###].png'),
        frameRange: { start: 0, end: 3 },
      });
      const v = await run<{ id: string }>(s, 'renderQueue.add', { comp, output: join(dir, 'c.mp4') });
      const job = s.engine.execute<JobResult>('renderQueue.render', {});
      await untilRendering(s, v.id);
      await run(s, 'renderQueue.remove', { id: v.id });
      const r = await job;
      if (!r.ok) throw new Error(r.error.code);
      expect(r.result.items.map((i) => i.id)).toEqual([p.id]);
      expect(r.result.failed).toBe(1);
      expect(await listDir(dir)).toEqual([
        'p.png.manifest.json',
        'p_000.png',
        'p_001.png',
        'p_002.png',
        'p_003.png',
      ]);
      // The job is over: a new render is accepted.
      const again = await run<JobResult>(s, 'renderQueue.render', {});
      expect(again.completed).toBe(1);
    },
  );

  it('renderQueue.stop reports stopped:false with a message when no render is running', async () => {
    const s = queueSession();
    const r = await run<{ stopped: boolean; message?: string }>(s, 'renderQueue.stop', {});
    expect(r.stopped).toBe(false);
    expect(r.message).toEqual(expect.any(String));
  });
});
