import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import { tempDir } from '../../helpers/tmp.js';

/** A base dir with `read/`, `write/`, `outside/` and a prefix sibling `read-evil/`. */
async function layout() {
  const dir = realpathSync.native(await tempDir('ec-conf-'));
  for (const d of ['read', 'write', 'outside', 'read-evil', 'read/sub']) await mkdir(join(dir, d));
  await writeFile(join(dir, 'outside', 'secret.txt'), 'secret');
  await writeFile(join(dir, 'read', 'in.txt'), 'in');
  return {
    dir,
    read: join(dir, 'read'),
    write: join(dir, 'write'),
    outside: join(dir, 'outside'),
  };
}

const code = (e: { code: string } | null) => e?.code ?? null;

describe('checkPath', () => {
  it('allows reads under read and write roots, writes only under write roots', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    expect(c.checkPath(join(l.read, 'in.txt'), 'read', 'path')).toBeNull();
    expect(c.checkPath(join(l.write, 'new.ecproj'), 'read', 'path')).toBeNull();
    expect(c.checkPath(join(l.write, 'new.ecproj'), 'write', 'path')).toBeNull();
    expect(code(c.checkPath(join(l.read, 'in.txt'), 'write', 'path'))).toBe('path_outside_roots');
    expect(code(c.checkPath(join(l.outside, 'secret.txt'), 'read', 'path'))).toBe('path_outside_roots');
  });

  it('names a folder that is both a read and a write root once', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.read] });
    const r = c.checkPath(join(l.outside, 'secret.txt'), 'read', 'path');
    expect(r?.message).toContain(`roots (${l.read}).`);
    expect(r?.remediation).toContain(`Read files below ${l.read}, or`);
  });

  it('suggests a folder param its own folder, not the folder above it', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    const spill = join(l.outside, 'spill');
    const w = c.checkPath(spill, 'write', 'overflow[0].dir');
    expect(w?.remediation).toContain(`--automation-write-root ${spill}.`);
    const o = c.checkPath(spill, 'write', 'outputDir');
    expect(o?.remediation).toContain(`--automation-write-root ${spill}.`);
  });

  it('names the parameter and the flag that would allow it', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    const w = c.checkPath(join(l.outside, 'x.png'), 'write', 'output');
    expect(w?.message).toContain('"output"');
    expect(w?.remediation).toContain(`--automation-write-root ${l.outside}`);
    const r = c.checkPath(join(l.outside, 'secret.txt'), 'read', 'path');
    expect(r?.remediation).toContain(`--automation-read-root ${l.outside}`);
  });

  it('refuses relative paths, .. segments (also /root/../etc) and NUL bytes', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    expect(code(c.checkPath('in.txt', 'read', 'path'))).toBe('path_outside_roots');
    expect(code(c.checkPath(`${l.read}/../outside/secret.txt`, 'read', 'path'))).toBe('path_outside_roots');
    expect(code(c.checkPath(`${l.read}/../read/in.txt`, 'read', 'path'))).toBe('path_outside_roots');
    expect(code(c.checkPath(`${l.read}/in\0.txt`, 'read', 'path'))).toBe('path_outside_roots');
  });

  it('counts the root itself as inside, accepts trailing slashes, refuses prefix siblings', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    expect(c.checkPath(l.read, 'read', 'path')).toBeNull();
    expect(c.checkPath(l.write, 'write', 'path')).toBeNull();
    expect(c.checkPath(`${l.read}/`, 'read', 'path')).toBeNull();
    expect(c.checkPath(`${l.write}/sub/`, 'write', 'path')).toBeNull();
    expect(code(c.checkPath(`${l.read}-evil`, 'read', 'path'))).toBe('path_outside_roots');
    expect(code(c.checkPath(`${l.read}-evil/x.txt`, 'read', 'path'))).toBe('path_outside_roots');
  });

  it('is case-sensitive', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [] });
    expect(code(c.checkPath(join(l.dir, 'READ', 'in.txt'), 'read', 'path'))).toBe('path_outside_roots');
    expect(code(c.checkPath(join(l.dir, 'Read'), 'read', 'path'))).toBe('path_outside_roots');
  });

  it('refuses symlinked directories and files that point out of the roots', async () => {
    const l = await layout();
    await symlink(l.outside, join(l.write, 'out-dir'));
    await symlink(join(l.outside, 'secret.txt'), join(l.read, 'secret-link.txt'));
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    expect(code(c.checkPath(join(l.write, 'out-dir', 'x.png'), 'write', 'output'))).toBe(
      'path_outside_roots',
    );
    expect(code(c.checkPath(join(l.write, 'out-dir', 'secret.txt'), 'read', 'path'))).toBe(
      'path_outside_roots',
    );
    expect(code(c.checkPath(join(l.read, 'secret-link.txt'), 'read', 'path'))).toBe('path_outside_roots');
    // The message does not reveal where the link leads.
    expect(c.checkPath(join(l.read, 'secret-link.txt'), 'read', 'path')?.message).not.toContain(l.outside);
  });

  it('allows symlinks that stay inside a root', async () => {
    const l = await layout();
    await symlink(join(l.read, 'in.txt'), join(l.read, 'alias.txt'));
    await symlink(l.write, join(l.read, 'to-write'));
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    expect(c.checkPath(join(l.read, 'alias.txt'), 'read', 'path')).toBeNull();
    expect(c.checkPath(join(l.read, 'to-write', 'x.png'), 'write', 'path')).toBeNull();
  });

  it('refuses a symlink loop and a dangling symlink', async () => {
    const l = await layout();
    await symlink(join(l.write, 'b'), join(l.write, 'a'));
    await symlink(join(l.write, 'a'), join(l.write, 'b'));
    await symlink(join(l.outside, 'not-yet'), join(l.write, 'dangling'));
    const c = createConfinement({ readRoots: [], writeRoots: [l.write] });
    expect(code(c.checkPath(join(l.write, 'a', 'x.png'), 'write', 'path'))).toBe('path_outside_roots');
    expect(code(c.checkPath(join(l.write, 'dangling'), 'write', 'path'))).toBe('path_outside_roots');
    expect(code(c.checkPath(join(l.write, 'dangling', 'x.png'), 'write', 'path'))).toBe('path_outside_roots');
  });

  it('handles a write root inside a read root, and a read root inside a write root', async () => {
    const l = await layout();
    const inner = join(l.read, 'sub');
    const a = createConfinement({ readRoots: [l.read], writeRoots: [inner] });
    expect(a.checkPath(join(inner, 'x.png'), 'write', 'path')).toBeNull();
    expect(code(a.checkPath(join(l.read, 'x.png'), 'write', 'path'))).toBe('path_outside_roots');
    expect(a.checkPath(join(l.read, 'in.txt'), 'read', 'path')).toBeNull();
    const b = createConfinement({ readRoots: [inner], writeRoots: [l.read] });
    expect(b.checkPath(join(inner, 'x.png'), 'write', 'path')).toBeNull();
    expect(b.checkPath(join(l.read, 'in.txt'), 'read', 'path')).toBeNull();
    expect(code(b.checkPath(join(l.write, 'x.png'), 'read', 'path'))).toBe('path_outside_roots');
  });

  it('writes nothing without a write root', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [] });
    expect(c.info.confined).toBe(true);
    const e = c.checkPath(join(l.read, 'new.ecproj'), 'write', 'path');
    expect(code(e)).toBe('path_outside_roots');
    expect(e?.remediation).toContain('--automation-write-root');
  });

  it('checks output templates by directory and file name, refusing a frame field in a directory', async () => {
    const l = await layout();
    await symlink(l.outside, join(l.write, 'out-dir'));
    const c = createConfinement({ readRoots: [], writeRoots: [l.write] });
    expect(c.checkPath(join(l.write, 'shot_[####].png'), 'write', 'output')).toBeNull();
    expect(code(c.checkPath(join(l.write, 'out-dir', 'shot_[####].png'), 'write', 'output'))).toBe(
      'path_outside_roots',
    );
    expect(code(c.checkPath(join(l.write, '[##]', 'shot.png'), 'write', 'output'))).toBe(
      'path_outside_roots',
    );
  });
});

describe('checkTool', () => {
  it('refuses scripts and UI-driving tools while confined, allows the rest', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [] });
    for (const t of [
      'run_script',
      'ui_click',
      'ui_key',
      'ui_type',
      'ui_drag',
      'ui_set',
      'script_ui',
      'control',
    ])
      expect(code(c.checkTool(t))).toBe('refused_while_confined');
    expect(c.checkTool('execute_command')).toBeNull();
    expect(c.checkTool('toString')).toBeNull();
  });

  it('refuses every path outside the roots with one wording: missing, file, link and dangling link alike', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    await symlink(join(l.outside, 'secret.txt'), join(l.outside, 'link'));
    await symlink(join(l.outside, 'nowhere'), join(l.outside, 'dangling'));
    await symlink(join(l.outside, 'loop-b'), join(l.outside, 'loop-a'));
    await symlink(join(l.outside, 'loop-a'), join(l.outside, 'loop-b'));
    for (const access of ['read', 'write'] as const) {
      const answers = ['missing', 'secret.txt', 'link', 'dangling', 'loop-a'].map((name) => {
        const e = c.checkPath(join(l.outside, name), access, 'path');
        // The name itself is echoed back (the agent sent it); nothing else may differ.
        return e && { ...e, message: e.message.replace(name, 'NAME') };
      });
      expect(answers[0]?.code).toBe('path_outside_roots');
      for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
    }
    // Inside a root, the agent may be told what it can see: a link leading out says so.
    await symlink(join(l.outside, 'secret.txt'), join(l.read, 'out-link'));
    const viaLink = c.checkPath(join(l.read, 'out-link'), 'read', 'path');
    expect(viaLink?.message).toContain('symbolic link');
    // Its remedy does not offer the link's own folder, a root already, nor tell where the link leads.
    expect(viaLink?.remediation).toContain('the folder the link points to');
    expect(viaLink?.remediation).not.toContain(`--automation-read-root ${l.read}`);
    expect(viaLink?.remediation).not.toContain(l.outside);
  });

  it('does not offer a write root already in force for a write through a link leading out of it', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    // A file in the write root replaced by a link out: render_preview {output} there was told to restart the
    // server with --automation-write-root <the write root itself>.
    await symlink(join(l.outside, 'secret.txt'), join(l.write, 'out.png'));
    await symlink(l.outside, join(l.write, 'out-dir'));
    for (const target of [join(l.write, 'out.png'), join(l.write, 'out-dir', 'f.png')]) {
      const e = c.checkPath(target, 'write', 'output');
      expect(e?.code).toBe('path_outside_roots');
      expect(e?.message).toContain('symbolic link');
      expect(e?.remediation).toContain('the folder the link points to');
      expect(e?.remediation).not.toContain(`--automation-write-root ${l.write}`);
      expect(e?.remediation).not.toContain(l.outside);
    }
  });

  it('a name too long to exist inside a root is bad_argument asking for a shorter name, not "outside the roots"', async () => {
    const l = await layout();
    const c = createConfinement({ readRoots: [l.read], writeRoots: [l.write] });
    // A 300-byte file name in the write root was refused as path_outside_roots, "cannot be resolved (permission
    // denied or changed while checking)", with a remedy about ".." segments; unconfined it is ENAMETOOLONG.
    const long = 'a'.repeat(300);
    for (const [path, access] of [
      [join(l.write, `${long}.ecproj`), 'write'],
      [join(l.write, long, 'f.png'), 'write'],
      [join(l.read, `${long}.png`), 'read'],
    ] as const) {
      const e = c.checkPath(path, access, 'path');
      expect(e?.code).toBe('bad_argument');
      expect(e?.remediation).toContain('shorter');
    }
    // Outside every root it is the one refusal any path there gets.
    expect(code(c.checkPath(join(l.outside, `${long}.png`), 'read', 'path'))).toBe('path_outside_roots');
  });
});
