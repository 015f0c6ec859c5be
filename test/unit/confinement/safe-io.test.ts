import { mkdir, readFile, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfined, writeConfined } from '../../../src/confinement/safe-io.js';
import { tempDir } from '../../helpers/tmp.js';
import { codeOf, IO_MODES } from './io-modes.js';

async function layout() {
  const dir = realpathSync.native(await tempDir('ec-safeio-'));
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  await mkdir(join(root, 'out'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'secret');
  return { dir, root, outside };
}

// Each test checks a path (as the guard does), then an "attacker" swaps in a symlink, then the final open
// happens with the stale check: the write must not land outside and the read must not return outside bytes.
const modes = IO_MODES;

describe.each(modes)('the final open after a stale check, %s', (_name, io) => {
  it('writes inside when nothing changed, atomically and without leftovers', async () => {
    const l = await layout();
    const target = join(l.root, 'out', 'a.ecproj');
    await writeConfined(target, [l.root], 'v1', target, 'path', io);
    await writeConfined(target, [l.root], 'v2', target, 'path', io);
    expect(await readFile(target, 'utf8')).toBe('v2');
    expect(await readdir(join(l.root, 'out'))).toEqual(['a.ecproj']);
    expect((await readConfined(target, [l.root], target, 'path', io)).toString()).toBe('v2');
  });

  it('refuses a write whose checked directory became a symlink out', async () => {
    const l = await layout();
    const target = join(l.root, 'out', 'a.ecproj');
    await rename(join(l.root, 'out'), join(l.root, 'moved'));
    await symlink(l.outside, join(l.root, 'out'));
    expect(await codeOf(writeConfined(target, [l.root], 'evil', target, 'path', io))).toBe(
      'path_outside_roots',
    );
    expect(await readdir(l.outside)).toEqual(['secret.txt']);
  });

  it('refuses a write whose checked parent directory became a symlink out', async () => {
    const l = await layout();
    await mkdir(join(l.root, 'a', 'out'), { recursive: true });
    await mkdir(join(l.outside, 'out'));
    const target = join(l.root, 'a', 'out', 'x.png');
    await rename(join(l.root, 'a'), join(l.root, 'a-moved'));
    await symlink(l.outside, join(l.root, 'a'));
    expect(await codeOf(writeConfined(target, [l.root], 'evil', target, 'path', io))).toBe(
      'path_outside_roots',
    );
    expect(await readdir(join(l.outside, 'out'))).toEqual([]);
  });

  it('replaces a target file that became a symlink out instead of writing through it', async () => {
    const l = await layout();
    const target = join(l.root, 'out', 'a.ecproj');
    await symlink(join(l.outside, 'secret.txt'), target);
    await writeConfined(target, [l.root], 'mine', target, 'path', io);
    expect(await readFile(join(l.outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(await readFile(target, 'utf8')).toBe('mine');
  });

  it('refuses a read whose file became a symlink out', async () => {
    const l = await layout();
    const target = join(l.root, 'out', 'in.txt');
    await symlink(join(l.outside, 'secret.txt'), target);
    expect(await codeOf(readConfined(target, [l.root], target, 'path', io))).toBe('path_outside_roots');
  });

  it('refuses a read whose directory became a symlink out', async () => {
    const l = await layout();
    const target = join(l.root, 'out', 'secret.txt');
    await rename(join(l.root, 'out'), join(l.root, 'moved'));
    await symlink(l.outside, join(l.root, 'out'));
    expect(await codeOf(readConfined(target, [l.root], target, 'path', io))).toBe('path_outside_roots');
  });

  it('refuses to read a FIFO or a directory instead of hanging or failing oddly', async () => {
    const l = await layout();
    const fifo = join(l.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await codeOf(readConfined(fifo, [l.root], fifo, 'path', io))).toBe('bad_argument');
    const dir = join(l.root, 'out');
    expect(await codeOf(readConfined(dir, [l.root], dir, 'path', io))).toBe('bad_argument');
  });

  it('reports a missing file as no_such_file', async () => {
    const l = await layout();
    const target = join(l.root, 'nope.txt');
    expect(await codeOf(readConfined(target, [l.root], target, 'path', io))).toBe('no_such_file');
    const deep = join(l.root, 'missing-dir', 'x.txt');
    expect(await codeOf(writeConfined(deep, [l.root], 'x', deep, 'path', io))).toBe('no_such_file');
  });
});
