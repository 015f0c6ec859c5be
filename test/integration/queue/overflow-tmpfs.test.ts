// Overflow onto real small volumes: two 2 MB tmpfs mounts (root needed; skipped with a message otherwise).
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createSession } from '../../../src/session.js';
import { repoRoot } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tmp.js';
import type { JobResult } from '../../../src/render/queue/service.js';

const mounted: string[] = [];

afterEach(() => {
  for (const dir of mounted.splice(0)) execFileSync('umount', [dir]);
});

/** Mounts a 2 MB tmpfs at a fresh folder; null when this machine does not allow it. */
async function smallVolume(): Promise<string | null> {
  const dir = join(await tempDir('ec-vol-'), 'vol');
  await mkdir(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    process.stderr.write(
      `overflow-tmpfs: skipped, cannot mount a tmpfs (${(err as Error).message.split('\n')[0]})\n`,
    );
    return null;
  }
  mounted.push(dir);
  return dir;
}

async function sampleSession() {
  const s = createSession();
  const r = await s.engine.execute('project.open', { path: join(repoRoot, 'fixtures/sample/sample.ecproj') });
  if (!r.ok) throw new Error(r.error.code);
  await s.engine.execute('renderQueue.clear', {});
  return s;
}

const frameNames = (names: string[]) => names.filter((n) => /^f_\d{3}\.png$/.test(n));

describe('overflow volumes (real tmpfs)', () => {
  it('continues the sequence on the next volumes when one fills up (ENOSPC and minFreeBytes)', async (ctx) => {
    const a = await smallVolume();
    const b = await smallVolume();
    if (!a || !b) return ctx.skip();
    const c = await tempDir();
    const s = await sampleSession();
    await s.engine.execute('renderQueue.add', {
      comp: 'Sample',
      output: join(a, 'f_[###].png'),
      // Move to b once less than 512 KiB would remain on a; b is used until a write fails with ENOSPC.
      overflow: [
        { dir: b, minFreeBytes: 512 * 1024 },
        { dir: c, minFreeBytes: 0 },
      ],
    });
    const r = await s.engine.execute<JobResult>('renderQueue.render', {});
    if (!r.ok) throw new Error(r.error.message);
    expect(r.result.completed).toBe(1);
    // The manifest goes beside the output (on a); it is not a frame.
    expect(await readdir(a)).toContain('f.png.manifest.json');
    const frames = async (d: string) => (await readdir(d)).filter((n) => n !== 'f.png.manifest.json');
    const [onA, onB, onC] = (await Promise.all([a, b, c].map(frames))) as [string[], string[], string[]];
    expect(onA.length).toBeGreaterThan(0);
    expect(onB.length).toBeGreaterThan(0);
    expect(onC.length).toBeGreaterThan(0);
    // No temporaries left behind by the failed ENOSPC writes, and every frame exactly once.
    expect([...onA, ...onB, ...onC].every((n) => /^f_\d{3}\.png$/.test(n))).toBe(true);
    expect(new Set([...onA, ...onB, ...onC]).size).toBe(75);
    expect(onA.length + onB.length + onC.length).toBe(75);
    // The sequence moves forward across volumes (batches finish out of order, so only the ends are fixed).
    expect(onA).toContain('f_000.png');
    expect(onC).toContain('f_074.png');
    expect(r.result.items[0]!.files!.count).toBe(75);
    // a was left by the free-space check (512 KiB stay free); b was filled until a write hit ENOSPC.
    const used = (d: string) => Number(execFileSync('du', ['-sb', d]).toString().split('\t')[0]);
    expect(used(a)).toBeLessThanOrEqual(2 * 1024 * 1024 - 512 * 1024);
    expect(used(b)).toBeGreaterThan(2 * 1024 * 1024 - 512 * 1024);
  });

  it('a stop removes exactly its files on every volume and keeps skipped frames', async (ctx) => {
    const a = await smallVolume();
    if (!a) return ctx.skip();
    const c = await tempDir();
    const s = await sampleSession();
    await s.engine.execute('renderQueue.add', {
      comp: 'Sample',
      output: join(a, 'f_[###].png'),
      skipExisting: true,
      overflow: [{ dir: c, minFreeBytes: 0 }],
    });
    execFileSync('sh', [
      '-c',
      `echo keep > ${a}/f_001.png && echo keep > ${c}/f_070.png && echo other > ${c}/f_071.png.part`,
    ]);
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    const off = s.renderQueue.onProgress((p) => {
      if (p.framesDone >= 50) s.renderQueue.stop();
    });
    const r = await job;
    off();
    if (!r.ok) throw new Error(r.error.message);
    expect(r.result.items[0]!.status).toBe('stopped');
    expect(await readdir(a)).toEqual(['f_001.png']);
    expect((await readdir(c)).sort()).toEqual(['f_070.png', 'f_071.png.part']);
    expect(frameNames(await readdir(c))).toEqual(['f_070.png']);
  });
});
