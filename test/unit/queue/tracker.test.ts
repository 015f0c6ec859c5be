import { describe, expect, it } from 'vitest';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { listDir } from '../../helpers/queue.js';
import { FileTracker } from '../../../src/render/queue/tracker.js';

describe('FileTracker', () => {
  it('writes through a temporary and renames; removeAll deletes exactly its own files', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'other.png'), 'x');
    const t = new FileTracker();
    await t.writeFile(join(dir, 'a.png'), Buffer.from('a'));
    const pending = await t.create(join(dir, 'b.mp4'));
    expect(pending.tempPath.startsWith(join(dir, '.b.mp4.'))).toBe(true);
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('a');
    expect(t.paths.sort()).toEqual([join(dir, 'a.png'), pending.tempPath].sort());
    await t.removeAll();
    expect(await listDir(dir)).toEqual(['other.png']);
  });

  it('release keeps finished files out of a later cleanup', async () => {
    const dir = await tempDir();
    const t = new FileTracker();
    await t.writeFile(join(dir, 'a.png'), Buffer.from('a'));
    t.release();
    await t.removeAll();
    expect(await listDir(dir)).toEqual(['a.png']);
  });

  it('never follows a symbolic link planted at the temporary name', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'victim'), 'safe');
    const t = new FileTracker();
    const original = FileTracker.tempFor;
    FileTracker.tempFor = (p) => `${p}.fixed`;
    try {
      await symlink(join(dir, 'victim'), join(dir, 'x.png.fixed'));
      await expect(t.writeFile(join(dir, 'x.png'), Buffer.from('evil'))).rejects.toMatchObject({
        code: 'EEXIST',
      });
    } finally {
      FileTracker.tempFor = original;
    }
    expect(await readFile(join(dir, 'victim'), 'utf8')).toBe('safe');
  });
});
