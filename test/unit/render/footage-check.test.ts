// What a render worker says of footage it cannot read: every file (a folder of footage missing is many files),
// not the first of them alone. Real files, removed.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { unreadableFootage } from '../../../src/render/distributed/footage-check.js';
import { newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

describe("a worker's footage check", () => {
  it('names every file it cannot read, with why', async () => {
    const dir = await tempDir();
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'C', width: 8, height: 8, duration: 1 });
    for (const name of ['a.png', 'b.png', 'c.png']) {
      const path = join(dir, name);
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
        .png()
        .toFile(path);
      const { id } = await run<{ id: string }>(engine, 'file.import', { path });
      await run(engine, 'layer.addFootage', { footage: id });
    }
    await run(engine, 'renderQueue.add', { comp: 'C', output: join(dir, 'f_[##].png') });
    const item = engine.document.renderQueue[0]!;
    expect(await unreadableFootage(engine.document, item)).toBeNull();
    await rm(join(dir, 'a.png'));
    await rm(join(dir, 'c.png'));
    const error = await unreadableFootage(engine.document, item);
    expect(error?.code).toBe('no_such_file');
    expect(error?.message).toBe(
      // In the composition's order, top layer first.
      `Cannot read 2 footage files on this worker: "${join(dir, 'c.png')}" (no such file or directory), "${join(dir, 'a.png')}" (no such file or directory).`,
    );
    expect(error?.remediation).toContain('put them back or relink the footage');
  });
});
