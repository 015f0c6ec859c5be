/**
 * footage.remove takes a footage item out of the project: refused, with the layers named, while a layer shows
 * it (a layer pointing at nothing would make the saved file refuse to open); otherwise one undo step, and the
 * file on disk stays.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeAll, showing } from '../../helpers/footage-session.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

async function png(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  await sharp({ create: { width: 8, height: 8, channels: 4, background: '#ff0000' } })
    .png()
    .toFile(path);
  return path;
}

const footageIds = (items: { type: string; id: string }[]) =>
  items.filter((i) => i.type === 'footage').map((i) => i.id);

describe('footage.remove', () => {
  it('refuses while a layer shows the item, naming the layer, and changes nothing', async () => {
    const dir = await tempDir();
    const { s, footage } = await showing(await png(dir, 'logo.png'), { name: 'Logo' });
    const revision = s.engine.revision;
    const r = await s.engine.execute('footage.remove', { footage: 'Logo' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_argument');
    expect(r.error.message).toMatch(/Footage "Logo" is shown by a layer: .+\/Logo\./);
    expect(r.error.remediation).toMatch(/layer\.delete/);
    expect(footageIds(s.engine.document.items)).toEqual([footage]);
    expect(s.engine.revision).toBe(revision);
  });

  it('removes an item no layer shows, in one undo step, and leaves its file on disk', async () => {
    const dir = await tempDir();
    const { s, comp, footage, layer } = await showing(await png(dir, 'logo.png'), { name: 'Logo' });
    const { id: other } = await run<{ id: string }>(s, 'file.import', {
      path: await png(dir, 'spare.png'),
    });
    await run(s, 'layer.delete', { comp, layer });

    expect(await run(s, 'footage.remove', { footage })).toEqual({ id: footage, removed: true });
    expect(footageIds(s.engine.document.items)).toEqual([other]);
    expect((await stat(join(dir, 'logo.png'))).isFile()).toBe(true);

    await run(s, 'edit.undo', {});
    expect(footageIds(s.engine.document.items)).toEqual([footage, other]);
    const again = await s.engine.execute('footage.remove', { footage: 'nothing-here' });
    expect(again.ok ? '' : again.error.code).toBe('not_found');
  });
});
