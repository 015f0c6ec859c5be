import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, resolveReal, syntaxProblem } from '../../../src/confinement/path-resolve.js';
import { tempDir } from '../../helpers/tmp.js';

async function base(): Promise<string> {
  return realpathSync.native(await tempDir('ec-conf-'));
}

describe('syntaxProblem', () => {
  it('refuses relative paths, .. segments and NUL bytes', () => {
    expect(syntaxProblem('relative/file.png')).toBe('relative');
    expect(syntaxProblem('./file.png')).toBe('relative');
    expect(syntaxProblem('/root/../etc/passwd')).toBe('dot_dot');
    expect(syntaxProblem('/root/..')).toBe('dot_dot');
    expect(syntaxProblem('/root/a\0b')).toBe('nul');
    expect(syntaxProblem('/root/..hidden/x')).toBeNull();
    expect(syntaxProblem('/root/a/')).toBeNull();
  });
});

describe('resolveReal', () => {
  it('resolves an existing file and a file that does not exist yet', async () => {
    const dir = await base();
    await writeFile(join(dir, 'a.txt'), 'x');
    expect(resolveReal(join(dir, 'a.txt'))).toEqual({ ok: true, real: join(dir, 'a.txt'), exists: true });
    expect(resolveReal(join(dir, 'new', 'deep', 'b.txt'))).toEqual({
      ok: true,
      real: join(dir, 'new', 'deep', 'b.txt'),
      exists: false,
    });
  });

  it('follows symlinked directories and files to their targets', async () => {
    const dir = await base();
    const outside = await base();
    await writeFile(join(outside, 'secret.txt'), 's');
    await symlink(outside, join(dir, 'linkdir'));
    await symlink(join(outside, 'secret.txt'), join(dir, 'linkfile'));
    expect(resolveReal(join(dir, 'linkdir', 'secret.txt'))).toMatchObject({
      ok: true,
      real: join(outside, 'secret.txt'),
    });
    expect(resolveReal(join(dir, 'linkfile'))).toMatchObject({ ok: true, real: join(outside, 'secret.txt') });
    // A file not yet created under a symlinked directory resolves through the link.
    expect(resolveReal(join(dir, 'linkdir', 'new.png'))).toMatchObject({
      ok: true,
      real: join(outside, 'new.png'),
      exists: false,
    });
  });

  it('refuses a symlink loop and a dangling symlink', async () => {
    const dir = await base();
    await symlink(join(dir, 'loop2'), join(dir, 'loop1'));
    await symlink(join(dir, 'loop1'), join(dir, 'loop2'));
    await symlink(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(resolveReal(join(dir, 'loop1'))).toEqual({ ok: false, reason: 'loop' });
    expect(resolveReal(join(dir, 'loop1', 'x.png'))).toEqual({ ok: false, reason: 'loop' });
    expect(resolveReal(join(dir, 'dangling'))).toEqual({ ok: false, reason: 'dangling' });
    expect(resolveReal(join(dir, 'dangling', 'x.png'))).toEqual({ ok: false, reason: 'dangling' });
  });

  it('treats trailing slashes and repeated slashes as the same path', async () => {
    const dir = await base();
    await mkdir(join(dir, 'sub'));
    expect(resolveReal(`${dir}/sub/`)).toMatchObject({ ok: true, real: join(dir, 'sub') });
    expect(resolveReal(`${dir}//sub/./`)).toMatchObject({ ok: true, real: join(dir, 'sub') });
  });

  it('refuses syntactic problems without touching the filesystem', () => {
    expect(resolveReal('etc/passwd')).toEqual({ ok: false, reason: 'relative' });
    expect(resolveReal('/tmp/../etc/passwd')).toEqual({ ok: false, reason: 'dot_dot' });
  });
});

describe('isInside', () => {
  it('counts the root itself and paths below it, not prefix siblings', () => {
    expect(isInside('/work/root', '/work/root')).toBe(true);
    expect(isInside('/work/root/a/b', '/work/root')).toBe(true);
    expect(isInside('/work/root-evil', '/work/root')).toBe(false);
    expect(isInside('/work/root-evil/x', '/work/root')).toBe(false);
    expect(isInside('/work', '/work/root')).toBe(false);
    expect(isInside('/anything', '/')).toBe(true);
  });

  it('is case-sensitive', () => {
    expect(isInside('/work/Root/a', '/work/root')).toBe(false);
  });
});
