/**
 * A render never writes over the footage its composition reads (the file would change under its decoder,
 * and every later render would read its own output): renderQueue.add and renderQueue.update refuse such an
 * output with bad_argument naming the footage, and an item queued before the footage came into its composition
 * fails the same way when it renders, before anything is written; the footage keeps its bytes. Frames of a
 * sequence output that no footage file shares still render.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { JobResult } from '../../../src/render/queue/service.js';
import type { Session } from '../../../src/session.js';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { tone } from '../../helpers/audio.js';
import { numberedClip, numberedSequence } from '../../helpers/media.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

/**
 * A session with a 64x48, 30 fps comp in a precomp showing `footagePath`; returns both, and `showFootage` to
 * add the precomp to the comp later (`later`: for an item queued before its composition read the footage).
 */
async function compShowing(
  footagePath: string,
  later = false,
): Promise<{ s: Session; comp: string; showFootage: () => Promise<unknown> }> {
  const s = trackedSession();
  const size = { width: 64, height: 48, frameRate: 30, duration: 1 };
  const { id: inner } = await run<{ id: string }>(s, 'comp.new', { name: 'Inner', ...size });
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: footagePath, frameRate: 30 });
  await run(s, 'layer.addFootage', { comp: inner, footage });
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', { name: 'Main', ...size });
  const showFootage = () => run(s, 'layer.addPrecomp', { comp, source: inner });
  if (!later) await showFootage();
  return { s, comp, showFootage };
}

/** The error of a command expected to fail. */
async function refusal(s: Session, id: string, params: unknown) {
  const r = await s.engine.execute(id, params);
  expect(r.ok).toBe(false);
  return r.ok ? undefined : r.error;
}

const sha = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

describeWithFfmpeg('a render and the footage it reads', () => {
  itWithFfmpeg(
    'refuses to queue a video over a clip its precomp shows, or to point an item at it',
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '30', 30);
      const { s, comp } = await compShowing(clip);
      const error = await refusal(s, 'renderQueue.add', { comp, output: clip, format: 'mp4' });
      expect(error?.code).toBe('bad_argument');
      expect(error?.message).toContain(clip);
      expect(error?.message).toMatch(/footage "clip-h264-30" \(footage_\d+\)/);
      expect(error?.remediation).toMatch(/another file/);
      // Nothing was queued, so there is no id to update: the remedy names the add.
      expect(error?.remediation).toContain('renderQueue.add');
      expect(error?.remediation).not.toContain('renderQueue.update');
      expect(await run<{ items: unknown[] }>(s, 'renderQueue.list')).toMatchObject({ items: [] });

      // An item elsewhere cannot be pointed at the clip either; it keeps its output.
      const output = join(dir, 'out.mp4');
      const { id } = await run<{ id: string }>(s, 'renderQueue.add', { comp, output, format: 'mp4' });
      const updated = await refusal(s, 'renderQueue.update', { id, output: clip });
      expect(updated?.code).toBe('bad_argument');
      expect(updated?.remediation).toContain('renderQueue.update');
      const { items } = await run<{ items: Array<{ output: string }> }>(s, 'renderQueue.list');
      expect(items.map((i) => i.output)).toEqual([output]);
    },
  );

  itWithFfmpeg(
    'fails an item queued before its composition read the clip, and the clip is kept',
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '30', 30);
      const before = await sha(clip);
      const { s, comp, showFootage } = await compShowing(clip, true);
      await run(s, 'renderQueue.add', { comp, output: clip, format: 'mp4' });
      await showFootage();
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.completed).toBe(0);
      const error = job.items[0]?.error;
      expect(error?.code).toBe('bad_argument');
      expect(error?.message).toContain(clip);
      expect(error?.message).toMatch(/footage "clip-h264-30" \(footage_\d+\)/);
      expect(await sha(clip)).toBe(before);
      // Nothing else was written beside it (no temporary file, no manifest).
      expect((await readdir(dir)).sort()).toEqual(['clip-h264-30.mp4']);
    },
  );

  itWithFfmpeg("refuses a sequence output whose frames are the sequence's own files", async () => {
    const dir = await tempDir();
    const pattern = await numberedSequence(dir, 12, 1);
    const third = pattern.replace('%04d', '0003');
    const before = await sha(third);
    const { s, comp, showFootage } = await compShowing(pattern, true);
    const output = join(dirname(pattern), 'f_[####].png');
    await run(s, 'renderQueue.add', { comp, output, frameRange: { start: 0, end: 5 } });
    await showFootage();
    const job = await run<JobResult>(s, 'renderQueue.render', {});
    expect(job.items[0]?.error?.code).toBe('bad_argument');
    expect(job.items[0]?.error?.message).toContain(pattern.replace('%04d', '0001'));
    expect(await sha(third)).toBe(before);
    expect((await readdir(dirname(pattern))).length).toBe(12);
    // Queued now, the same item is refused at once.
    await run(s, 'renderQueue.clear', {});
    const error = await refusal(s, 'renderQueue.add', { comp, output, frameRange: { start: 0, end: 5 } });
    expect(error?.code).toBe('bad_argument');

    // Frames numbered past the sequence's last file share no file with it: they render.
    await run(s, 'renderQueue.add', { comp, output, frameRange: { start: 20, end: 22 } });
    const later = await run<JobResult>(s, 'renderQueue.render', {});
    expect(later.items[0]?.error).toBeUndefined();
    expect(later.completed).toBe(1);
    expect((await readdir(dirname(pattern))).filter((f) => /^f_002[0-2]\.png$/.test(f)).length).toBe(3);
  });

  itWithFfmpeg(
    'fails an output that reaches the footage through a linked folder or a linked file',
    async () => {
      // The paths as spelt differ, so queueing passes; the render resolves them before it writes anything.
      const dir = await tempDir();
      const media = join(dir, 'media');
      await mkdir(media);
      const voice = await tone(media, { freq: 440, seconds: 1 });
      const before = await sha(voice);
      await symlink(media, join(dir, 'linked'));
      const { s, comp } = await compShowing(voice);
      const throughFolder = join(dir, 'linked', 'tone-440-1.wav');
      await run(s, 'renderQueue.add', { comp, output: throughFolder });
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.completed).toBe(0);
      expect(job.items[0]?.error?.code).toBe('bad_argument');
      expect(job.items[0]?.error?.message).toContain(voice);
      expect(await sha(voice)).toBe(before);
      expect((await readdir(media)).sort()).toEqual(['tone-440-1.wav']);

      // Footage imported through a link to the file: an output at the file itself replaces what the link reads.
      const clip = await numberedClip(media, 'h264', '30', 30);
      const clipBefore = await sha(clip);
      await symlink(clip, join(dir, 'clip-link.mp4'));
      const linked = await compShowing(join(dir, 'clip-link.mp4'));
      await run(linked.s, 'renderQueue.add', { comp: linked.comp, output: clip, format: 'mp4' });
      const second = await run<JobResult>(linked.s, 'renderQueue.render', {});
      expect(second.items[0]?.error?.code).toBe('bad_argument');
      expect(await sha(clip)).toBe(clipBefore);

      // A sequence output in the sequence's folder reached through a link.
      const pattern = await numberedSequence(dir, 4, 1);
      await symlink(dirname(pattern), join(dir, 'seq-link'));
      const frames = await compShowing(pattern);
      await run(frames.s, 'renderQueue.add', {
        comp: frames.comp,
        output: join(dir, 'seq-link', 'f_[####].png'),
        frameRange: { start: 0, end: 3 },
      });
      const third = await run<JobResult>(frames.s, 'renderQueue.render', {});
      expect(third.items[0]?.error?.code).toBe('bad_argument');
    },
  );

  itWithFfmpeg('refuses an output whose manifest would be written over a clip it reads', async () => {
    // ffprobe reads a clip by its bytes whatever its name, so a clip may be named like a render's manifest.
    const dir = await tempDir();
    const clip = join(dir, 'out.mp4.manifest.json');
    await copyFile(await numberedClip(dir, 'h264', '30', 30), clip);
    const before = await sha(clip);
    const { s, comp } = await compShowing(clip);
    const error = await refusal(s, 'renderQueue.add', { comp, output: join(dir, 'out.mp4') });
    expect(error?.code).toBe('bad_argument');
    expect(error?.message).toContain(clip);

    // Queued through a linked folder, the paths as spelt differ; the render refuses it before writing.
    await symlink(dir, join(dir, 'linked'));
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'linked', 'out.mp4') });
    const job = await run<JobResult>(s, 'renderQueue.render', {});
    expect(job.items[0]?.error?.code).toBe('bad_argument');
    expect(await sha(clip)).toBe(before);
    expect((await readdir(dir)).sort()).toEqual(['clip-h264-30.mp4', 'linked', 'out.mp4.manifest.json']);
  });
  itWithFfmpeg('renders to a linked folder that holds no footage', async () => {
    const dir = await tempDir();
    const voice = await tone(dir, { freq: 440, seconds: 1 });
    const out = join(dir, 'out');
    await mkdir(out);
    await symlink(out, join(dir, 'out-link'));
    const { s, comp } = await compShowing(voice);
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'out-link', 'tone-440-1.wav') });
    const job = await run<JobResult>(s, 'renderQueue.render', {});
    expect(job.completed).toBe(1);
    expect(await readdir(out)).toContain('tone-440-1.wav');
  });
});
