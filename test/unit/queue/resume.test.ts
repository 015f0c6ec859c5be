// Resumable renders (renderQueue.render resume:true, the CLI's --resume): a stopped item keeps the frames it
// completed, and the next resumable run renders only the rest. Without resume a stop keeps nothing of its own,
// and a re-render never loses an earlier file it did not replace with a complete one (sequence or one file).
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, hashFiles, listDir, queueSession, renderStoppedAt, run } from '../../helpers/queue.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import type { JobResult } from '../../../src/render/queue/service.js';

const FRAMES = 40;
/** The manifest a done render writes beside f_[###].png. */
const MANIFEST = 'f.png.manifest.json';

/** A session with the 40-frame "slow" comp (30 ms a frame) queued to `output`. */
async function slowQueue(output: string) {
  const s = queueSession({ maxWorkers: 1 });
  const comp = await addComp(s, { name: 'slow', frameRate: 10, duration: FRAMES / 10 });
  await run(s, 'renderQueue.add', { comp, output });
  return { s, comp };
}

describe('a resumable render', () => {
  it('keeps the complete frames of a stopped item, and the next resumable run renders only the rest', async () => {
    const dir = await tempDir();
    const { s } = await slowQueue(join(dir, 'f_[###].png'));
    const stopped = await renderStoppedAt(s, 10, { resume: true });
    expect(stopped.items[0]!.status).toBe('stopped');
    const kept = await hashFiles(dir);
    const names = Object.keys(kept);
    // Only complete frames under their final names: no temporary, no half-written frame, no manifest.
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(names.length).toBeLessThan(FRAMES);
    expect(names.every((n) => /^f_\d{3}\.png$/.test(n))).toBe(true);
    // The result says what stays: those frames, their files and bytes (it said 0 frames and no files).
    expect(stopped.items[0]).toMatchObject({ frames: names.length, files: { count: names.length } });
    // Its error says what it kept and how to go on from it.
    expect(stopped.items[0]!.error!.message).toContain(`the ${names.length} frames it completed are kept`);
    expect(stopped.items[0]!.error!.remediation).toMatch(/resume: true.*--resume/);
    expect(stopped.items[0]!.bytes).toBeGreaterThan(0);

    const resumed = await run<JobResult>(s, 'renderQueue.render', { resume: true });
    expect(resumed.items[0]).toMatchObject({
      status: 'done',
      skipped_frames: names.length,
      frames: FRAMES - names.length,
    });
    const { [MANIFEST]: manifest, ...all } = await hashFiles(dir);
    expect(manifest).toBeDefined();
    expect(Object.keys(all)).toHaveLength(FRAMES);
    // The resumed render's manifest lists the whole output, the frames kept from before included, in frame
    // order, each with its own hash (it listed only the frames this run wrote).
    const listed = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as {
      count: number;
      files: Array<{ path: string; sha256: string }>;
    };
    expect(listed.count).toBe(FRAMES);
    expect(listed.files.map((f) => basename(f.path))).toEqual(Object.keys(all).sort());
    for (const f of listed.files) expect(f.sha256).toBe(all[basename(f.path)]);
    // The kept frames were not touched, and the frames equal an uninterrupted render's (the manifests name
    // other folders).
    for (const n of names) expect(all[n]).toBe(kept[n]);
    const fresh = await tempDir();
    const { s: s2 } = await slowQueue(join(fresh, 'f_[###].png'));
    await run(s2, 'renderQueue.render', {});
    const { [MANIFEST]: freshManifest, ...freshFrames } = await hashFiles(fresh);
    expect(freshManifest).toBeDefined();
    expect(freshFrames).toEqual(all);
  });

  it('a failed item keeps its complete frames too, none past the failure', async () => {
    const dir = await tempDir();
    const s = queueSession({ maxWorkers: 1 });
    // The stand-in renderer throws at frame 20 of this comp.
    const comp = await addComp(s, { name: 'throw-at-20', frameRate: 10, duration: 3 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[###].png') });
    const r = await run<JobResult>(s, 'renderQueue.render', { resume: true });
    expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'render_failed' } });
    const kept = await listDir(dir);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(20);
    expect(kept.every((n) => /^f_\d{3}\.png$/.test(n) && Number(n.slice(2, 5)) < 20)).toBe(true);
  });

  it('an item removed from the queue mid-render is cleaned up exactly even when resumable', async () => {
    const dir = await tempDir();
    const { s } = await slowQueue(join(dir, 'f_[###].png'));
    const { id } = (await run<{ items: Array<{ id: string }> }>(s, 'renderQueue.list')).items[0]!;
    const job = s.engine.execute<JobResult>('renderQueue.render', { resume: true });
    // Removed once it has written frames of its own: its output is not wanted, so none of them stays.
    let removal: Promise<unknown> | undefined;
    const off = s.renderQueue.onProgress((p) => {
      if (p.framesDone >= 5) removal ??= run(s, 'renderQueue.remove', { id });
    });
    const r = await job.finally(off);
    await removal;
    expect(r.ok && r.result.removed).toEqual([id]);
    expect(await listDir(dir)).toEqual([]);
  });

  it('without resume, a stop removes every frame of its own (the exact cleanup MCP clients rely on)', async () => {
    const dir = await tempDir();
    const { s } = await slowQueue(join(dir, 'f_[###].png'));
    const r = await renderStoppedAt(s, 10);
    expect(r.items[0]!.status).toBe('stopped');
    expect(await listDir(dir)).toEqual([]);
  });

  it('over a complete earlier render it renders nothing and changes nothing (existing frames are skipped)', async () => {
    const dir = await tempDir();
    const { s, comp } = await slowQueue(join(dir, 'f_[###].png'));
    await run(s, 'renderQueue.render', {});
    const before = await hashFiles(dir);
    await run(s, 'layer.addSolid', { comp, color: '#ffffff' });
    // resume skips what exists: every frame is there, so nothing is rendered and nothing changes.
    const r = await run<JobResult>(s, 'renderQueue.render', { resume: true });
    expect(r.items[0]).toMatchObject({ status: 'done', frames: 0, skipped_frames: FRAMES });
    expect(await hashFiles(dir)).toEqual(before);
  });
});

describe('one-file outputs (video, GIF)', () => {
  itWithFfmpeg.each(['mp4', 'gif'])(
    '%s: a stopped render keeps no partial file, resumable or not; a stopped re-render leaves the earlier file byte-identical',
    async (ext) => {
      const dir = await tempDir();
      const { s, comp } = await slowQueue(join(dir, `clip.${ext}`));
      const resumable = (await renderStoppedAt(s, 10, { resume: true })).items[0]!;
      expect(resumable.status).toBe('stopped');
      expect(await listDir(dir)).toEqual([]);
      // It says so, rather than promise that a resumed run renders "only the rest".
      expect(resumable.error!.message).toContain('nothing unfinished is kept');
      expect(resumable.error!.remediation).not.toMatch(/only the rest/);
      expect((await run<JobResult>(s, 'renderQueue.render', {})).completed).toBe(1);
      const before = await hashFiles(dir);
      // Another layer changes every frame: the new file would differ.
      await run(s, 'layer.addSolid', { comp, color: '#ffffff' });
      expect((await renderStoppedAt(s, 10)).items[0]!.status).toBe('stopped');
      expect(await hashFiles(dir)).toEqual(before);
      // Resumable: the complete file is skipped, not rendered again.
      const resumed = await run<JobResult>(s, 'renderQueue.render', { resume: true });
      expect(resumed.items[0]).toMatchObject({ status: 'done', frames: 0, skipped_frames: FRAMES });
      expect(await hashFiles(dir)).toEqual(before);
    },
  );
});
