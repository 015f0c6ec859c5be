import { existsSync, renameSync, symlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createConfinement } from '../../../src/confinement/index.js';
import { defineCommand, EDIT, type AnyCommand } from '../../../src/engine/index.js';
import { createSession } from '../../../src/session.js';
import { layout, png, type Layout } from './fixture.js';

function confined(l: Layout, extraCommands: AnyCommand[] = []) {
  const confinement = createConfinement({ readRoots: [l.ro], writeRoots: [l.root] });
  return createSession({ confinement, extraCommands }).engine;
}

const codeOf = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code);

describe('a confined engine', () => {
  it('saves inside a write root and refuses outside, leaving the document unchanged', async () => {
    const l = await layout();
    const engine = confined(l);
    await engine.execute('comp.new', { width: 64, height: 64 });
    const before = engine.document;
    expect(codeOf(await engine.execute('project.save', { path: join(l.outside, 'p.ecproj') }))).toBe(
      'path_outside_roots',
    );
    expect(codeOf(await engine.execute('project.save', { path: join(l.ro, 'p.ecproj') }))).toBe(
      'path_outside_roots',
    );
    expect(engine.document).toBe(before);
    expect(engine.projectPath).toBeNull();
    expect(await readdir(l.outside)).toEqual(['secret.png']);
    expect(codeOf(await engine.execute('project.save', { path: join(l.root, 'p.ecproj') }))).toBe('ok');
    expect(existsSync(join(l.root, 'p.ecproj'))).toBe(true);
  });

  it('allows everything when not confined', async () => {
    const l = await layout();
    const engine = createSession({
      confinement: createConfinement({ readRoots: [], writeRoots: [] }),
    }).engine;
    expect(codeOf(await engine.execute('project.save', { path: join(l.outside, 'p.ecproj') }))).toBe('ok');
  });

  it('checks Save and Increment and Save against the open project file', async () => {
    const l = await layout();
    const free = createSession().engine;
    await free.execute('comp.new', { width: 64, height: 64 });
    await free.execute('project.save', { path: join(l.ro, 'shot.ecproj') });
    await free.execute('project.save', { path: join(l.root, 'work.ecproj') });

    const engine = confined(l);
    expect(codeOf(await engine.execute('project.open', { path: join(l.ro, 'shot.ecproj') }))).toBe('ok');
    expect(codeOf(await engine.execute('project.save', {}))).toBe('path_outside_roots');
    expect(codeOf(await engine.execute('project.incrementAndSave', {}))).toBe('path_outside_roots');
    expect(await readdir(l.ro)).toEqual(['shot.ecproj']);

    expect(codeOf(await engine.execute('project.open', { path: join(l.root, 'work.ecproj') }))).toBe('ok');
    expect(codeOf(await engine.execute('project.incrementAndSave', {}))).toBe('ok');
    expect(existsSync(join(l.root, 'work_2.ecproj'))).toBe(true);
  });

  it('refuses opening and importing through symlinks that point out', async () => {
    const l = await layout();
    await symlink(join(l.outside, 'secret.png'), join(l.root, 'link.png'));
    await symlink(l.outside, join(l.ro, 'linkdir'));
    const engine = confined(l);
    expect(codeOf(await engine.execute('file.import', { path: join(l.root, 'in.png') }))).toBe('ok');
    expect(codeOf(await engine.execute('file.import', { path: join(l.root, 'link.png') }))).toBe(
      'path_outside_roots',
    );
    expect(codeOf(await engine.execute('file.import', { path: join(l.ro, 'linkdir', 'secret.png') }))).toBe(
      'path_outside_roots',
    );
    expect(codeOf(await engine.execute('file.import', { path: `${l.root}/../outside/secret.png` }))).toBe(
      'path_outside_roots',
    );
    expect(codeOf(await engine.execute('file.import', { path: `${l.root}/../root/in.png` }))).toBe(
      'path_outside_roots',
    );
    // Relative paths never reach the guard: the engine itself requires absolute file params.
    expect(codeOf(await engine.execute('file.import', { path: 'root/in.png' }))).toBe('bad_argument');
    expect(engine.document.items.filter((i) => i.type === 'footage')).toHaveLength(1);
  });

  it('ends an image sequence at a frame that links out, naming it; a sequence that starts outside is refused', async () => {
    const l = await layout();
    const seq = join(l.root, 'seq');
    await mkdir(seq);
    for (const n of [1, 2, 3]) await png(join(seq, `f_000${n}.png`));
    await symlink(join(l.outside, 'secret.png'), join(seq, 'f_0004.png'));
    await png(join(seq, 'f_0005.png'));
    const engine = confined(l);
    const r = await engine.execute('file.import', { path: join(seq, 'f_%04d.png') });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.result).toMatchObject({
      media: { kind: 'sequence', frameCount: 3, sequence: { first: 1, last: 3 } },
    });
    expect(r.warnings?.join(' ')).toMatch(
      /stops at frame 3 \(f_0003\.png\): f_0004\.png leads outside the roots/,
    );
    expect(r.warnings?.join(' ')).toMatch(/--automation-read-root/);
    // Nothing past the link is looked for: f_0005 is not announced as after a gap.
    expect(r.warnings).toHaveLength(1);
    // The link as the sequence's first file: the import itself reads outside, refused as before.
    const first = await engine.execute('file.import', { path: join(seq, 'f_0004.png'), sequence: true });
    expect(codeOf(first)).toBe('path_outside_roots');
  });

  it('refuses scripts, Execute File and Reveal in Finder whatever their arguments', async () => {
    const l = await layout();
    const engine = confined(l);
    const inside = join(l.root, 'in.png');
    for (const [id, params] of [
      ['file.runScript', { path: inside }],
      ['file.executeFile', { path: inside }],
      ['file.revealInFinder', { path: inside }],
      ['script.run', { code: 'return 1' }],
    ] as const) {
      if (!engine.command(id)) continue;
      expect(codeOf(await engine.execute(id, params)), id).toBe('refused_while_confined');
    }
  });

  it('refuses starting a script thread at the ports too (a command that slipped past the guard)', async () => {
    const l = await layout();
    const events = { message: () => undefined, error: () => undefined, exit: () => undefined };
    const data = { code: 'return 1', filename: 'x.js', document: null, maxLogLines: 1 };
    expect(() => confined(l).ports.startScript(data, events)).toThrow(
      expect.objectContaining({ code: 'refused_while_confined' }),
    );
  });

  it('refuses absolute paths nested anywhere in params, and text that is a path outside', async () => {
    const l = await layout();
    const probe = defineCommand({
      id: 'test.nested',
      title: 'Nested',
      category: 'Test',
      description: 'takes anything',
      params: z.strictObject({ data: z.unknown() }),
      pathParams: {},
      annotations: EDIT,
      mutates: false,
      run: () => 'ran',
    });
    const engine = confined(l, [probe as AnyCommand]);
    const nested = (p: string) => ({ data: [{ a: { b: [1, { c: p }] } }] });
    expect(codeOf(await engine.execute('test.nested', nested(join(l.outside, 'secret.png'))))).toBe(
      'path_outside_roots',
    );
    expect(codeOf(await engine.execute('test.nested', nested(join(l.ro, 'x.png'))))).toBe('ok');
    expect(codeOf(await engine.execute('test.nested', { data: { [join(l.outside, 'k')]: 1 } }))).toBe(
      'path_outside_roots',
    );
    await engine.execute('comp.new', { width: 64, height: 64 });
    expect(codeOf(await engine.execute('layer.addText', { text: '/etc/passwd' }))).toBe('path_outside_roots');
    expect(codeOf(await engine.execute('layer.addText', { text: 'Hello' }))).toBe('ok');
  });

  it('refuses a render queue output whose directory is a symlink out, and outside overflow dirs', async () => {
    const l = await layout();
    await symlink(l.outside, join(l.root, 'renders'));
    await mkdir(join(l.root, 'real'));
    const engine = confined(l);
    await engine.execute('comp.new', { width: 64, height: 64, duration: 1 });
    const add = (p: object) => engine.execute('renderQueue.add', { comp: 'comp_1', ...p });
    expect(codeOf(await add({ output: join(l.root, 'renders', 'shot_[####].png') }))).toBe(
      'path_outside_roots',
    );
    expect(codeOf(await add({ output: join(l.ro, 'shot_[####].png') }))).toBe('path_outside_roots');
    expect(
      codeOf(
        await add({
          output: join(l.root, 'real', 'shot_[####].png'),
          overflow: [{ dir: join(l.root, 'real') }, { dir: l.outside }],
        }),
      ),
    ).toBe('path_outside_roots');
    expect(engine.document.renderQueue).toHaveLength(0);
    expect(codeOf(await add({ output: join(l.root, 'real', 'shot_[####].png') }))).toBe('ok');
  });

  it('writes nothing without a write root', async () => {
    const l = await layout();
    const engine = createSession({
      confinement: createConfinement({ readRoots: [l.root], writeRoots: [] }),
    }).engine;
    expect(codeOf(await engine.execute('file.import', { path: join(l.root, 'in.png') }))).toBe('ok');
    expect(codeOf(await engine.execute('project.save', { path: join(l.root, 'p.ecproj') }))).toBe(
      'path_outside_roots',
    );
    await expect(engine.ports.writeFileAtomic(join(l.root, 'x.txt'), 'x')).rejects.toMatchObject({
      code: 'path_outside_roots',
    });
  });
});

describe('reads that happen later', () => {
  /** A project saved in the write root whose footage lives outside (or behind a symlink out). */
  async function projectWithOutsideFootage(l: Layout, footage: string): Promise<string> {
    const free = createSession().engine;
    await free.execute('comp.new', { width: 64, height: 64, duration: 1 });
    const imported = await free.execute<{ id: string }>('file.import', { path: footage });
    if (!imported.ok) throw new Error(JSON.stringify(imported.error));
    await free.execute('layer.addFootage', { footage: imported.result.id });
    const path = join(l.root, 'outside-footage.ecproj');
    await free.execute('project.save', { path });
    return path;
  }

  it('refuses reading footage outside the roots from a project opened inside a root', async () => {
    const l = await layout();
    const footage = join(l.outside, 'secret.png');
    const project = await projectWithOutsideFootage(l, footage);
    const engine = confined(l);
    expect(codeOf(await engine.execute('project.open', { path: project }))).toBe('ok');
    await expect(engine.ports.readFile(footage)).rejects.toMatchObject({ code: 'path_outside_roots' });
    await expect(engine.ports.probeImage(footage)).rejects.toMatchObject({ code: 'path_outside_roots' });
    await expect(engine.ports.exists(footage)).rejects.toMatchObject({ code: 'path_outside_roots' });
    expect((await engine.ports.readFile(join(l.root, 'in.png'))).length).toBeGreaterThan(0);
  });

  it('refuses footage reached through a symlink inside the root that points out', async () => {
    const l = await layout();
    const link = join(l.root, 'footage-link.png');
    await symlink(join(l.outside, 'secret.png'), link);
    await projectWithOutsideFootage(l, link);
    const engine = confined(l);
    await expect(engine.ports.readFile(link)).rejects.toMatchObject({ code: 'path_outside_roots' });
  });
});

describe('a symlink swapped in between the check and the write', () => {
  /** A session whose guard, right after passing a command, lets an "attacker" act: a deterministic race. */
  function racing(l: Layout, attack: () => void) {
    const c = createConfinement({ readRoots: [l.ro], writeRoots: [l.root] });
    const confinement = {
      ...c,
      guard: (command: AnyCommand, params: unknown, view: Parameters<typeof c.guard>[2]) => {
        const r = c.guard(command, params, view);
        if (!r && command.id === 'project.save') attack();
        return r;
      },
    };
    const engine = createSession({ confinement }).engine;
    return { engine };
  }

  it('does not write outside when the checked directory becomes a symlink out', async () => {
    const l = await layout();
    await mkdir(join(l.root, 'out'));
    const { engine } = racing(l, () => {
      // Synchronous so it lands before the command's write begins.
      renameSync(join(l.root, 'out'), join(l.root, 'moved'));
      symlinkSync(l.outside, join(l.root, 'out'));
    });
    const r = await engine.execute('project.save', { path: join(l.root, 'out', 'p.ecproj') });
    expect(codeOf(r)).toBe('path_outside_roots');
    expect(await readdir(l.outside)).toEqual(['secret.png']);
  });

  it('does not write through a target file that becomes a symlink out', async () => {
    const l = await layout();
    const target = join(l.root, 'p.ecproj');
    const { engine } = racing(l, () => symlinkSync(join(l.outside, 'secret.png'), target));
    const secret = await readFile(join(l.outside, 'secret.png'));
    // The ports check again at use time and see the link (a swap after that is covered in safe-io.test.ts:
    // the rename replaces the link).
    expect(codeOf(await engine.execute('project.save', { path: target }))).toBe('path_outside_roots');
    expect(await readFile(join(l.outside, 'secret.png'))).toEqual(secret);
    expect(await readdir(l.outside)).toEqual(['secret.png']);
  });

  it('refuses reading a file that became a symlink out after the check', async () => {
    const l = await layout();
    const target = join(l.root, 'late.png');
    const c = createConfinement({ readRoots: [], writeRoots: [l.root] });
    expect(c.checkPath(target, 'read', 'path')).toBeNull();
    await rename(join(l.root, 'in.png'), join(l.root, 'gone.png'));
    await symlink(join(l.outside, 'secret.png'), target);
    const ports = createSession({ confinement: c }).engine.ports;
    await expect(ports.readFile(target)).rejects.toMatchObject({ code: 'path_outside_roots' });
  });
});
