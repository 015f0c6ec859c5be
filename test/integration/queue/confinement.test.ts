// renderQueue.render under confinement: its declared outputs, overflow folders and footage are checked
// before the job starts.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { createConfinement } from '../../../src/confinement/index.js';
import { createSession } from '../../../src/session.js';
import { colorRendererUrl, listDir } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

type Ok = (id: string, params: unknown) => Promise<{ id: string }>;

async function confinedSession(readRoots: string[], writeRoots: string[]) {
  const confinement = createConfinement({ readRoots, writeRoots });
  const s = createSession({ confinement, renderQueue: { rendererModule: colorRendererUrl, maxWorkers: 1 } });
  const ok = async (id: string, params: unknown) => {
    const r = await s.engine.execute<{ id: string }>(id, params);
    if (!r.ok) throw new Error(`${id}: ${r.error.code}`);
    return r.result;
  };
  await ok('comp.new', { name: 'c', width: 16, height: 16, frameRate: 5, duration: 1 });
  return { s, ok };
}

describe('render queue under confinement', () => {
  it('renders inside the write root', async () => {
    const root = await tempDir();
    const { s, ok } = await confinedSession([root], [root]);
    await ok('renderQueue.add', { comp: 'c', output: join(root, 'f_[##].png') });
    const r = await s.engine.execute('renderQueue.render', {});
    expect(r.ok).toBe(true);
    // Five frames and their manifest.
    expect(await listDir(root)).toHaveLength(6);
  });

  it('never reads a skipped frame through a link out of the roots to list it in the manifest', async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    const secret = join(elsewhere, 'secret.png');
    await writeFile(secret, 'outside the roots');
    await mkdir(join(root, 'out'));
    // A "frame" that skipExisting counts as there: a link to a file outside the roots.
    await symlink(secret, join(root, 'out', 'f_01.png'));
    const { s, ok } = await confinedSession([root], [root]);
    await ok('renderQueue.add', { comp: 'c', output: join(root, 'out', 'f_[##].png'), skipExisting: true });
    const r = await s.engine.execute('renderQueue.render', {});
    expect(r.ok).toBe(true);
    const manifest = await readFile(join(root, 'out', 'f.png.manifest.json'), 'utf8');
    // Its size and sha256 were listed: a read outside the roots.
    expect(manifest).not.toContain(createHash('sha256').update('outside the roots').digest('hex'));
    expect(JSON.parse(manifest).files.map((f: { path: string }) => f.path)).not.toContain(
      join(root, 'out', 'f_01.png'),
    );
  });

  it('finishes a skip-existing render whose folder holds a FIFO named like a frame', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'out'));
    execFileSync('mkfifo', [join(root, 'out', 'f_01.png')]);
    const { s, ok } = await confinedSession([root], [root]);
    await ok('renderQueue.add', { comp: 'c', output: join(root, 'out', 'f_[##].png'), skipExisting: true });
    // The manifest's read of the skipped "frame" blocked on the FIFO until a writer came: the render hung.
    const r = await s.engine.execute('renderQueue.render', {});
    expect(r.ok).toBe(true);
    const manifest = JSON.parse(await readFile(join(root, 'out', 'f.png.manifest.json'), 'utf8'));
    expect(manifest.files).toHaveLength(4);
  }, 20_000);

  /** Saves a project built without confinement (the queue item may point anywhere), opens it confined. */
  async function openConfined(root: string, build: (ok: Ok) => Promise<void>) {
    const free = createSession();
    const ok: Ok = async (id, params) => {
      const r = await free.engine.execute<{ id: string }>(id, params);
      if (!r.ok) throw new Error(`${id}: ${r.error.code}`);
      return r.result;
    };
    await ok('comp.new', { name: 'c', width: 8, height: 8, frameRate: 5, duration: 1 });
    await build(ok);
    await ok('project.save', { path: join(root, 'p.ecproj') });
    const { s } = await confinedSession([root], [root]);
    const opened = await s.engine.execute('project.open', { path: join(root, 'p.ecproj') });
    expect(opened.ok).toBe(true);
    return s;
  }

  it('refuses a queued overflow folder outside the write roots before rendering anything', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    const s = await openConfined(root, async (ok) => {
      await ok('renderQueue.add', {
        comp: 'c',
        output: join(root, 'f_[##].png'),
        overflow: [{ dir: outside }],
      });
    });
    const r = await s.engine.execute('renderQueue.render', {});
    expect(r.ok ? 'ok' : r.error.code).toBe('path_outside_roots');
    expect(await listDir(root)).toEqual(['p.ecproj']);
    expect(await listDir(outside)).toEqual([]);
  });

  it('refuses footage outside the read roots', async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    const logo = join(elsewhere, 'logo.png');
    await sharp({ create: { width: 4, height: 4, channels: 4, background: '#00ff00' } })
      .png()
      .toFile(logo);
    const s = await openConfined(root, async (ok) => {
      const f = await ok('file.import', { path: logo });
      await ok('layer.addFootage', { footage: f.id });
      await ok('renderQueue.add', { comp: 'c', output: join(root, 'f_[##].png') });
    });
    const r = await s.engine.execute('renderQueue.render', {});
    expect(r.ok ? 'ok' : r.error.code).toBe('path_outside_roots');
    expect(await listDir(root)).toEqual(['p.ecproj']);
  });

  it("says so when a footage prop's sequence stops at a frame that links out of the roots", async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    const frame = (path: string) =>
      sharp({ create: { width: 4, height: 4, channels: 4, background: '#00ff00' } })
        .png()
        .toFile(path);
    await frame(join(root, 'd_0001.png'));
    await frame(join(root, 's_0001.png'));
    // Frames 2 and 3 of the prop's sequence are links to files outside the roots.
    for (const n of [2, 3]) {
      await frame(join(elsewhere, `s_000${n}.png`));
      await symlink(join(elsewhere, `s_000${n}.png`), join(root, `s_000${n}.png`));
    }
    const { s, ok } = await confinedSession([root], [root]);
    const f = await ok('file.import', { path: join(root, 'd_%04d.png'), frameRate: 5 });
    await ok('layer.addFootage', { footage: f.id, name: 'Plate' });
    await ok('input.define', {
      name: 'plate',
      type: 'footage',
      bind: [{ layer: 'Plate', property: 'source' }],
    });
    await ok('renderQueue.add', {
      comp: 'c',
      output: join(root, 'out', 'f_[##].png'),
      props: { plate: join(root, 's_%04d.png') },
    });
    const r = await s.engine.execute<{ items: { status: string; warnings?: string[] }[] }>(
      'renderQueue.render',
      {},
    );
    expect(r.ok).toBe(true);
    const item = r.ok ? r.result.items[0] : undefined;
    expect(item?.status).toBe('done');
    // Frames 2 to 5 of the render show nothing of the prop's sequence, which is cut at its first frame.
    expect(item?.warnings?.join('\n')).toMatch(/s_0002\.png leads outside the roots/);
  });

  it('refuses a footage prop outside the read roots: at add, and at render for an item in a project file', async () => {
    const root = await tempDir();
    const elsewhere = await tempDir();
    const inside = join(root, 'in.png');
    const outside = join(elsewhere, 'out.png');
    for (const path of [inside, outside])
      await sharp({ create: { width: 4, height: 4, channels: 4, background: '#00ff00' } })
        .png()
        .toFile(path);
    const build = async (ok: Ok) => {
      const f = await ok('file.import', { path: inside });
      await ok('layer.addFootage', { footage: f.id, name: 'Logo' });
      await ok('input.define', {
        name: 'logo',
        type: 'footage',
        bind: [{ layer: 'Logo', property: 'source' }],
      });
    };
    const s = await openConfined(root, async (ok) => {
      await build(ok);
      await ok('renderQueue.add', { comp: 'c', output: join(root, 'f_[##].png'), props: { logo: outside } });
    });
    const r = await s.engine.execute('renderQueue.render', {});
    expect(r.ok ? 'ok' : r.error.code).toBe('path_outside_roots');
    expect(await listDir(root)).toEqual(['in.png', 'p.ecproj']);
    const added = await s.engine.execute('renderQueue.add', {
      comp: 'c',
      output: join(root, 'g_[##].png'),
      props: { logo: outside },
    });
    expect(added.ok ? 'ok' : added.error.code).toBe('path_outside_roots');
  });
});
