// A full disk must fail the item (io_error) with exact cleanup, even where ffmpeg exits 0 after
// "Error writing trailer ... No space left on device" (ffmpeg 5.1 does for GIF and animated WebP).
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { canMount, mountTmpfs, type Tmpfs } from '../../helpers/tmpfs.js';
import { addComp, listDir, queueSession, run } from '../../helpers/queue.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import type { JobResult } from '../../../src/render/queue/service.js';

const mounts: Tmpfs[] = [];
afterEach(async () => {
  for (const m of mounts.splice(0)) await m.unmount();
});

/**
 * A 1 MB tmpfs filled up by one file, so any further write fails with ENOSPC (or, with `leave`, once that many
 * more bytes are written); null when not permitted.
 */
async function fullVolume(leave = 0): Promise<string | null> {
  const m = await mountTmpfs('1m');
  if (!m) {
    process.stderr.write('disk-full: skipped, mounting a tmpfs is not permitted here\n');
    return null;
  }
  mounts.push(m);
  const fh = await open(join(m.dir, 'fill'), 'w');
  const chunk = Buffer.alloc(4096);
  try {
    for (;;) await fh.write(chunk);
  } catch {
    // ENOSPC: the volume is full.
  } finally {
    if (leave) await fh.truncate((await fh.stat()).size - leave);
    await fh.close();
  }
  return m.dir;
}

const withMount = canMount ? itWithFfmpeg : it.skip;

describe('full disk (real tmpfs)', () => {
  withMount.each([
    ['mov', 'clip.mov'],
    ['webp-anim', 'anim.webp'],
  ])(
    '%s: a disk that fills up mid-render fails with io_error and leaves no files behind',
    async (format, name) => {
      const dir = await fullVolume(8 * 1024);
      if (!dir) return;
      const s = queueSession();
      const comp = await addComp(s, { name: 'c', width: 1280, height: 720, duration: 4 });
      await run(s, 'renderQueue.add', { comp, output: join(dir, name), format });
      const r = await run<JobResult>(s, 'renderQueue.render', {});
      expect(r.items[0]!.status).toBe('failed');
      expect(r.items[0]!.error?.code).toBe('io_error');
      expect(await listDir(dir)).toEqual(['fill']);
    },
  );

  withMount.each([
    ['gif', 'anim.gif'],
    ['webp-anim', 'anim.webp'],
    ['mp4', 'clip.mp4'],
    ['png', 'f_[##].png'],
  ])('%s fails with io_error and leaves no files behind', async (format, name) => {
    const dir = await fullVolume();
    if (!dir) return;
    const s = queueSession();
    const comp = await addComp(s, { name: 'c', width: 64, height: 36 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, name), format });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.completed).toBe(0);
    expect(r.failed).toBe(1);
    expect(r.items[0]!.status).toBe('failed');
    expect(r.items[0]!.error?.code).toBe('io_error');
    expect(r.items[0]).toMatchObject({ files: null, bytes: 0, manifest: null });
    // Exact cleanup: no output, no .part temporary; only the filler remains.
    expect(await listDir(dir)).toEqual(['fill']);
  });

  withMount.each([
    ['png', join('sub', 'f_[##].png')],
    ['png', 'f_[##].png'],
    ['gif', 'anim.gif'],
    ['mp4', 'clip.mp4'],
  ])('%s on a read-only volume (%s) fails with io_error, not a raw EROFS', async (format, name) => {
    const m = await mountTmpfs('1m');
    if (!m) return;
    mounts.push(m);
    execFileSync('mount', ['-o', 'remount,ro', m.dir]);
    const s = queueSession();
    const comp = await addComp(s, { name: 'c', width: 16, height: 9 });
    await run(s, 'renderQueue.add', { comp, output: join(m.dir, name), format });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.failed).toBe(1);
    expect(r.items[0]!.error?.code).toBe('io_error');
    expect(r.items[0]!.error?.message).toMatch(/the volume is read-only/);
    // It names the output asked for, not the hidden temporary the file is written to first.
    expect(r.items[0]!.error?.message).not.toMatch(/\.part"/);
    expect(r.items[0]!.error?.remediation).toMatch(/writable volume/);
    expect(await listDir(m.dir)).toEqual([]);
  });
});
