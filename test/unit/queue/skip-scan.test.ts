// The skipExisting scan of an image sequence: one listing per volume read back to frame numbers (never a
// stat per frame), stopped by the item's signal.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RenderQueueItem } from '../../../src/engine/index.js';
import { SequenceExporter } from '../../../src/render/queue/exporters/sequence.js';
import { FileTracker } from '../../../src/render/queue/tracker.js';
import { tempDir } from '../../helpers/tmp.js';

function exporter(out: string, spill: string, frames: number[], signal = new AbortController().signal) {
  const item: RenderQueueItem = {
    id: 'rq_1',
    comp: 'comp_1',
    output: join(out, 'f_[##].png'),
    format: 'png',
    frameRange: null,
    scale: 1,
    skipExisting: true,
    overflow: [{ dir: spill, minFreeBytes: 0 }],
    alpha: false,
    audio: true,
  };
  const ctx = {
    item,
    frames,
    frameRate: 10,
    frameSize: { width: 64, height: 36 },
    tracker: new FileTracker(),
    ffmpeg: null,
    signal,
    audio: null,
    progress: () => undefined,
  };
  return new SequenceExporter(ctx, { kind: 'png', level: 1 });
}

describe('skipExisting scan', () => {
  it("skips exactly the item's frames found on any volume", async () => {
    const [out, spill] = [await tempDir(), await tempDir()];
    for (const name of [
      'f_03.png',
      'f_100.png',
      'f_5.png',
      'f_07.png.part',
      '.f_08.png.1a2b.part',
      'g_09.png',
    ])
      await writeFile(join(out, name), 'x');
    await mkdir(join(out, 'f_04.png'));
    for (const name of ['f_06.png', 'f_02.png', 'f_200.png']) await writeFile(join(spill, name), 'x');
    const frames = Array.from({ length: 198 }, (_, i) => i + 3);
    const skip = await exporter(out, spill, frames).prepare();
    // f_5 has the wrong padding, f_02 is outside the frames 3-200 and the rest are other files.
    expect([...(skip as Set<number>)].sort((a, b) => a - b)).toEqual([3, 4, 6, 100, 200]);
  });

  it('a volume that does not exist yet holds nothing to skip', async () => {
    const out = await tempDir();
    await writeFile(join(out, 'f_01.png'), 'x');
    const skip = await exporter(out, join(out, 'later'), [0, 1, 2]).prepare();
    expect([...(skip as Set<number>)]).toEqual([1]);
  });

  it('stops with cancelled once the signal aborts, also in the middle of a long listing', async () => {
    const [out, spill] = [await tempDir(), await tempDir()];
    // More names than one stretch of the scan reads between two stopping points.
    execFileSync('sh', ['-c', 'cd "$1" && seq 0 4999 | sed "s/.*/f_&.png/" | xargs touch', 'sh', out]);
    expect(await readdir(out)).toHaveLength(5000);
    const frames = Array.from({ length: 864_000 }, (_, i) => i);
    const stop = new AbortController();
    const scan = exporter(out, spill, frames, stop.signal).prepare();
    stop.abort();
    await expect(scan).rejects.toMatchObject({ code: 'cancelled' });
    await expect(exporter(out, spill, frames, stop.signal).prepare()).rejects.toMatchObject({
      code: 'cancelled',
    });
  }, 60_000);
});
