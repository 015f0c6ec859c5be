import { describe, expect, it } from 'vitest';
import { mkdir, readFile, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { listDir } from '../../helpers/queue.js';
import { createConfinement } from '../../../src/confinement/index.js';
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

  it("a stopped render's cleanup leaves a file another render of the same output put there since", async () => {
    const dir = await tempDir();
    // Another render (B) writes as ours does: a temporary renamed over the name.
    const other = async (name: string, content: string) => {
      await writeFile(join(dir, `.${name}.b`), content);
      await rename(join(dir, `.${name}.b`), join(dir, name));
    };
    await writeFile(join(dir, 'old.png'), 'earlier');
    const a = new FileTracker();
    await a.writeFile(join(dir, 'new.png'), Buffer.from('A'));
    await a.writeFile(join(dir, 'old.png'), Buffer.from('A'));
    await a.writeFile(join(dir, 'mine.png'), Buffer.from('A'));
    await other('new.png', 'B');
    await other('old.png', 'B');
    // A is stopped: B's files stay as B wrote them; A's own goes; nothing of A is left aside.
    await a.removeAll();
    expect(await readFile(join(dir, 'new.png'), 'utf8')).toBe('B');
    expect(await readFile(join(dir, 'old.png'), 'utf8')).toBe('B');
    expect(await listDir(dir)).toEqual(['new.png', 'old.png']);
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

  it('through a confined folder handle: records real paths, cleans up through the handle after a swap', async () => {
    const dir = realpathSync.native(await tempDir());
    const root = join(dir, 'root');
    const outside = join(dir, 'outside');
    await mkdir(join(root, 'real-out'), { recursive: true });
    await mkdir(outside);
    await symlink(join(root, 'real-out'), join(root, 'out'));
    const c = createConfinement({ readRoots: [], writeRoots: [root] });
    const t = new FileTracker((d) => c.openWriteDir(d, 'output'));
    await t.writeFile(join(root, 'out', 'a.png'), Buffer.from('a'));
    const pending = await t.create(join(root, 'out', 'b.mp4'));
    // Real paths, through the in-root link: what cleanup removes is known exactly.
    expect(t.paths.sort()).toEqual([join(root, 'real-out', 'a.png'), pending.tempPath].sort());
    expect(pending.tempPath.startsWith(join(root, 'real-out', '.b.mp4.'))).toBe(true);
    // Linux: a child (ffmpeg) reaches the temporary through our descriptor on the checked folder.
    if (existsSync('/proc/self/fd'))
      expect(pending.childPath.startsWith(`/proc/${process.pid}/fd/`)).toBe(true);
    await rename(join(root, 'real-out'), join(root, 'moved'));
    await t.removeAll();
    expect(await readdir(join(root, 'moved'))).toEqual([]);
    expect(await readdir(outside)).toEqual([]);
  });

  it('keeps an earlier file it replaces aside: put back by removeAll, deleted by release', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.png'), 'earlier a');
    await writeFile(join(dir, 'b.png'), 'earlier b');
    const t = new FileTracker();
    await t.writeFile(join(dir, 'a.png'), Buffer.from('new a'));
    await t.writeFile(join(dir, 'c.png'), Buffer.from('new c'));
    // Writing the same name twice keeps the earlier file of the first time, not this job's own.
    await t.writeFile(join(dir, 'a.png'), Buffer.from('newer a'));
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('newer a');
    const [aside] = (await listDir(dir)).filter((n) => n.startsWith('.a.png.') && n.endsWith('.prev'));
    expect(t.paths.sort()).toEqual([join(dir, 'a.png'), join(dir, aside!), join(dir, 'c.png')].sort());
    await t.removeAll();
    expect(await listDir(dir)).toEqual(['a.png', 'b.png']);
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('earlier a');

    const done = new FileTracker();
    await done.writeFile(join(dir, 'b.png'), Buffer.from('new b'));
    await done.release();
    await done.removeAll();
    expect(await listDir(dir)).toEqual(['a.png', 'b.png']);
    expect(await readFile(join(dir, 'b.png'), 'utf8')).toBe('new b');
  });

  it('keepCompleted (a stopped resumable render) keeps complete files, removes the rest, puts back the earlier', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.png'), 'earlier a');
    await writeFile(join(dir, 'v.mp4'), 'earlier video');
    const t = new FileTracker();
    await t.writeFile(join(dir, 'out', 'f_0.png'), Buffer.from('frame 0'));
    // A complete file that replaced an earlier one: the new one stays, the earlier one's bytes are not kept.
    await t.writeFile(join(dir, 'a.png'), Buffer.from('new a'));
    // Unfinished: a temporary another writer was filling (ffmpeg), over an earlier file that must stay.
    await t.create(join(dir, 'v.mp4'));
    // A folder made for nothing: removed as in removeAll.
    await t.ensureDir(join(dir, 'unused'));
    await t.keepCompleted();
    expect(await listDir(dir)).toEqual(['a.png', 'out', 'v.mp4']);
    expect(await listDir(join(dir, 'out'))).toEqual(['f_0.png']);
    expect(await readFile(join(dir, 'a.png'), 'utf8')).toBe('new a');
    expect(await readFile(join(dir, 'v.mp4'), 'utf8')).toBe('earlier video');
    expect(t.paths).toEqual([]);
  });

  it('a commit that cannot replace a folder leaves it, and cleanup removes nothing of it', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'x.png'));
    await writeFile(join(dir, 'x.png', 'inside'), 'keep');
    const t = new FileTracker();
    await expect(t.writeFile(join(dir, 'x.png'), Buffer.from('new'))).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/),
    });
    await t.removeAll();
    expect(await listDir(dir)).toEqual(['x.png']);
    expect(await readdir(join(dir, 'x.png'))).toEqual(['inside']);
  });
});
