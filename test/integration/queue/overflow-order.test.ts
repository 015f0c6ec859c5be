// Overflow keeps frame order across volumes (real tmpfs mounts; root needed, skipped otherwise): workers
// finish frames out of order, yet no frame lands on an earlier volume than a frame before it.
import { afterEach, describe, expect, it } from 'vitest';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { addComp, queueSession, run } from '../../helpers/queue.js';
import { canMount, mountTmpfs, type Tmpfs } from '../../helpers/tmpfs.js';
import type { JobResult } from '../../../src/render/queue/service.js';

const mounts: Tmpfs[] = [];

afterEach(async () => {
  for (const m of mounts.splice(0)) await m.unmount();
});

async function volume(size: string): Promise<string> {
  const m = await mountTmpfs(size);
  if (!m) throw new Error('mount failed although running as root');
  mounts.push(m);
  return m.dir;
}

/** Frame number → index of the volume holding it, for the `f_NNN.png` files in `dirs`. */
async function placement(dirs: string[]): Promise<Map<number, number>> {
  const where = new Map<number, number>();
  for (const [i, dir] of dirs.entries())
    for (const name of await readdir(dir)) {
      // The manifest goes beside the output (volume 0); it is not a frame.
      if (i === 0 && name === 'f.png.manifest.json') continue;
      const m = /^f_(\d{3})\.png$/.exec(name);
      if (!m) throw new Error(`unexpected file ${name} in volume ${i}`);
      expect(where.has(Number(m[1]))).toBe(false);
      where.set(Number(m[1]), i);
    }
  return where;
}

/** The frames (in frame order) whose volume is earlier than that of a frame before them. */
function backwards(where: Map<number, number>, frames: number[]): number[] {
  let highest = 0;
  const bad: number[] = [];
  for (const f of frames) {
    const v = where.get(f)!;
    if (v < highest) bad.push(f);
    highest = Math.max(highest, v);
  }
  return bad;
}

async function overflowSession(a: string, b: string, skipExisting: boolean) {
  const s = queueSession({ maxWorkers: 2 });
  // "slow": two workers deliver frames interleaved (0, 4, 1, 5, ...); "noise": ~16 KB frames that fill `a`.
  const comp = await addComp(s, { name: 'slow noise', width: 64, height: 64, frameRate: 10, duration: 3 });
  await run(s, 'renderQueue.add', {
    comp,
    output: join(a, 'f_[###].png'),
    skipExisting,
    // Move on to b once less than 800 KiB of a's 1 MiB would stay free: after about ten frames.
    overflow: [{ dir: b, minFreeBytes: 800 * 1024 }],
  });
  return s;
}

describe.skipIf(!canMount)('overflow order (real tmpfs)', () => {
  it('never puts a frame on an earlier volume than a frame before it', async () => {
    const [a, b] = [await volume('1m'), await volume('4m')];
    const s = await overflowSession(a, b, false);
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.completed).toBe(1);
    const where = await placement([a, b]);
    const frames = Array.from({ length: 30 }, (_, i) => i);
    expect([...where.keys()].sort((x, y) => x - y)).toEqual(frames);
    expect(new Set(where.values())).toEqual(new Set([0, 1]));
    expect(backwards(where, frames)).toEqual([]);
  });

  it('still skips frames of an earlier run found on any volume, and leaves them untouched', async () => {
    const [a, b] = [await volume('1m'), await volume('4m')];
    await writeFile(join(b, 'f_003.png'), 'earlier run');
    await writeFile(join(a, 'f_020.png'), 'earlier run');
    const s = await overflowSession(a, b, true);
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.items[0]).toMatchObject({ status: 'done', frames: 28, skipped_frames: 2 });
    const where = await placement([a, b]);
    expect(where.get(3)).toBe(1);
    expect(where.get(20)).toBe(0);
    const rendered = Array.from({ length: 30 }, (_, i) => i).filter((f) => f !== 3 && f !== 20);
    expect(backwards(where, rendered)).toEqual([]);
  });
});
