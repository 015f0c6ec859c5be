/** The one atomic write: replaces whole files, leaves no temporary behind, and sets modes as asked. */
import { lstat, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAtomicIn, writeFileAtomic } from '../../../src/node-io/atomic-write.js';
import { tempDir } from '../../helpers/tmp.js';

async function withUmask<T>(mask: number, fn: () => Promise<T>): Promise<T> {
  const old = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(old);
  }
}

describe('writeFileAtomic', () => {
  it('creates and replaces the target, leaving nothing else in the folder', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.txt');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, new Uint8Array([116, 119, 111]));
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(await readdir(dir)).toEqual(['a.txt']);
  });

  it('replaces a symbolic link at the target instead of writing through it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'elsewhere.txt'), 'untouched');
    await symlink(join(dir, 'elsewhere.txt'), join(dir, 'link.txt'));
    await writeFileAtomic(join(dir, 'link.txt'), 'new');
    expect((await lstat(join(dir, 'link.txt'))).isFile()).toBe(true);
    expect(await readFile(join(dir, 'elsewhere.txt'), 'utf8')).toBe('untouched');
  });

  it('applies the umask to the mode, unless exactMode', async () => {
    const dir = await tempDir();
    await withUmask(0o022, () => writeFileAtomic(join(dir, 'shared'), 'x', { mode: 0o666 }));
    expect((await stat(join(dir, 'shared'))).mode & 0o777).toBe(0o644);
    await withUmask(0, () => writeFileAtomic(join(dir, 'secret'), 'x', { mode: 0o600, exactMode: true }));
    expect((await stat(join(dir, 'secret'))).mode & 0o777).toBe(0o600);
  });

  it('fails with the fs error when the folder is missing', async () => {
    const dir = await tempDir();
    await expect(writeFileAtomic(join(dir, 'no', 'a.txt'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('writeAtomicIn', () => {
  it('removes the temporary and keeps the old file when the folder check before the rename fails', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.txt'), 'old');
    const refused = Object.assign(new Error('swapped'), { code: 'path_outside_roots' });
    let synced = false;
    const target = {
      base: dir,
      verify: () => Promise.reject(refused),
      sync: async () => void (synced = true),
    };
    await expect(writeAtomicIn(target, 'a.txt', 'new')).rejects.toBe(refused);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['a.txt']);
    expect(synced).toBe(false);
  });

  it('checks the folder, renames, then syncs the folder', async () => {
    const dir = await tempDir();
    const steps: string[] = [];
    const target = {
      base: dir,
      verify: async () => void steps.push(`verify: ${(await readdir(dir)).length} file`),
      sync: async () => void steps.push(`sync: ${(await readdir(dir)).join()}`),
    };
    await writeAtomicIn(target, 'a.txt', 'x');
    expect(steps).toEqual(['verify: 1 file', 'sync: a.txt']);
  });
});
