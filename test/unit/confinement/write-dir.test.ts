// openWriteDir / CheckedDir: the verified folder handle render outputs are written through. Real directories
// and symlinks; each race is made deterministic by swapping between the check and the use.
import { mkdir, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckedDir, DEFAULT_IO } from '../../../src/confinement/checked-dir.js';
import { createPolicy } from '../../../src/confinement/policy.js';
import { openWriteDir } from '../../../src/confinement/write-dir.js';
import { isInside } from '../../../src/confinement/path-resolve.js';
import { tempDir } from '../../helpers/tmp.js';
import { codeOf, IO_MODES } from './io-modes.js';

async function layout() {
  const dir = realpathSync.native(await tempDir('ec-writedir-'));
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  await mkdir(join(root, 'out'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'secret');
  const policy = createPolicy({ readRoots: [], writeRoots: [root] });
  return { dir, root, outside, policy };
}

const modes = IO_MODES;

describe.each(modes)('openWriteDir, %s', (_name, io) => {
  it('creates missing folders, writes through the handle, and removes exactly the folders it created', async () => {
    const l = await layout();
    const dir = await openWriteDir(l.policy, join(l.root, 'out', 'a', 'b'), 'output', io);
    expect(dir.real).toBe(join(l.root, 'out', 'a', 'b'));
    await writeFile(join(dir.base, 'f.png'), 'x');
    expect(await readdir(join(l.root, 'out', 'a', 'b'))).toEqual(['f.png']);
    await dir.verify();
    await rename(join(dir.base, 'f.png'), join(dir.base, 'g.png'));
    await rm(join(dir.base, 'g.png'));
    await dir.removeCreated();
    await dir.close();
    expect(await readdir(join(l.root, 'out'))).toEqual([]);
    expect(await readdir(l.root)).toEqual(['out']);
  });

  it('close releases every descriptor it opened, also after removeCreated (a failed render)', async () => {
    const l = await layout();
    const open = async () => (await readdir('/proc/self/fd')).length;
    const before = await open();
    // Three missing folders: each one's parent stays open until close, for the cleanup to go through it.
    const dir = await openWriteDir(l.policy, join(l.root, 'out', 'a', 'b', 'c'), 'output', io);
    expect(await open()).toBeGreaterThan(before);
    await dir.removeCreated();
    await dir.close();
    expect(await open()).toBe(before);
    expect(await readdir(join(l.root, 'out'))).toEqual([]);
  });

  it('cleanup leaves a folder somebody else put in place of one it created', async () => {
    const l = await layout();
    const dir = await openWriteDir(l.policy, join(l.root, 'out', 'a'), 'output', io);
    await rename(join(l.root, 'out', 'a'), join(l.root, 'out', 'a-moved'));
    await mkdir(join(l.root, 'out', 'a'));
    await dir.removeCreated();
    await dir.close();
    expect((await readdir(join(l.root, 'out'))).sort()).toEqual(['a', 'a-moved']);
  });

  it('refuses a folder that leads out through a symlink, and creates nothing', async () => {
    const l = await layout();
    await symlink(l.outside, join(l.root, 'link'));
    expect(await codeOf(openWriteDir(l.policy, join(l.root, 'link', 'new'), 'output', io))).toBe(
      'path_outside_roots',
    );
    expect(await readdir(l.outside)).toEqual(['secret.txt']);
  });

  it('verify refuses once the opened folder was moved, or swapped for a symlink out', async () => {
    const l = await layout();
    const dir = await openWriteDir(l.policy, join(l.root, 'out'), 'output', io);
    await rename(join(l.root, 'out'), join(l.root, 'out-old'));
    await symlink(l.outside, join(l.root, 'out'));
    expect(await codeOf(dir.verify())).toBe('path_outside_roots');
    await dir.close();
  });

  it('a symlink planted at a missing folder after the check is refused, not followed', async () => {
    const l = await layout();
    const real = join(l.root, 'out', 'new', 'deeper');
    // The check saw `new` missing; before the folder is made, a link out takes its name.
    await symlink(l.outside, join(l.root, 'out', 'new'));
    const check = { inside: (p: string) => isInside(p, l.root), shownPath: real, param: 'output', io };
    expect(await codeOf(CheckedDir.openCreating(real, join(l.root, 'out'), check))).toBe(
      'path_outside_roots',
    );
    expect(await readdir(l.outside)).toEqual(['secret.txt']);
  });
});

describe('writes through the handle on Linux', () => {
  it.runIf(DEFAULT_IO.procFd)(
    'land in the opened folder even after it was swapped for a link out',
    async () => {
      const l = await layout();
      const dir = await openWriteDir(l.policy, join(l.root, 'out'), 'output');
      await rename(join(l.root, 'out'), join(l.root, 'out-old'));
      await symlink(l.outside, join(l.root, 'out'));
      await writeFile(join(dir.base, 'frame.png'), 'x');
      // A child process reaches the same folder through our pid.
      expect(dir.sharedBase).toBe(dir.base.replace('/proc/self/', `/proc/${process.pid}/`));
      expect(await readdir(join(l.root, 'out-old'))).toEqual(['frame.png']);
      expect(await readdir(l.outside)).toEqual(['secret.txt']);
      await dir.close();
    },
  );
});
