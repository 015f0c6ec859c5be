import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, listDir, queueSession, run } from '../../helpers/queue.js';
import { frameColor } from '../../helpers/color-renderer.mjs';
import type { JobResult } from '../../../src/render/queue/service.js';

describe('renderQueue.render (stand-in renderer)', () => {
  it('renders a PNG sequence and reports files, bytes and the manifest', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c', layers: 2 });
    const { id } = await run<{ id: string }>(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'f_[###].png'),
    });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.completed).toBe(1);
    expect(r.failed).toBe(0);
    const item = r.items[0]!;
    expect(item.id).toBe(id);
    expect(item.frames).toBe(10);
    expect(item.files).toEqual({ first: join(dir, 'f_000.png'), last: join(dir, 'f_009.png'), count: 10 });
    expect(item).not.toHaveProperty('sha256');
    expect(item.manifest).toBe(join(dir, 'f.png.manifest.json'));
    expect(await listDir(dir)).toEqual([
      'f.png.manifest.json',
      ...Array.from({ length: 10 }, (_, i) => `f_00${i}.png`),
    ]);
    const { data, info } = await sharp(join(dir, 'f_004.png')).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([32, 18]);
    expect([...data.subarray(0, 3)]).toEqual(frameColor(4, 2).slice(0, 3));
    const list = await run<{ items: Array<{ status: string; framesDone: number; files: number }> }>(
      s,
      'renderQueue.list',
    );
    expect(list.items[0]).toMatchObject({ status: 'done', framesDone: 10, files: 10 });
  });
});
