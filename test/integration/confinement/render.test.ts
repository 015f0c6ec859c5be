import { existsSync, renameSync, symlinkSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import type { AnyCommand } from '../../../src/engine/index.js';
import { createSession } from '../../../src/session.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tone } from '../../helpers/audio.js';
import { layout, type Layout } from './fixture.js';

const codeOf = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code);

/** Saves (unconfined) a 1-frame project in the write root with a footage layer and one queue item. */
async function project(l: Layout, footage: string, output: string): Promise<string> {
  const free = createSession().engine;
  await free.execute('comp.new', { width: 16, height: 16, duration: 1, frameRate: 1 });
  const imported = await free.execute<{ id: string }>('file.import', { path: footage });
  if (!imported.ok) throw new Error(JSON.stringify(imported.error));
  await free.execute('layer.addFootage', { footage: imported.result.id });
  const added = await free.execute('renderQueue.add', { comp: 'comp_1', output });
  if (!added.ok) throw new Error(JSON.stringify(added.error));
  const path = join(l.root, 'render.ecproj');
  await free.execute('project.save', { path });
  return path;
}

function confined(l: Layout, confinement = createConfinement({ readRoots: [l.ro], writeRoots: [l.root] })) {
  const session = createSession({ confinement });
  return session.engine;
}

describe('renderQueue.render while confined', () => {
  it('renders footage and output inside the roots', async () => {
    const l = await layout();
    await mkdir(join(l.root, 'out'));
    const path = await project(l, join(l.root, 'in.png'), join(l.root, 'out', 'shot_[##].png'));
    const engine = confined(l);
    expect(codeOf(await engine.execute('project.open', { path }))).toBe('ok');
    const r = await engine.execute('renderQueue.render', {});
    expect(codeOf(r)).toBe('ok');
    expect((await readdir(join(l.root, 'out'))).sort()).toEqual(['shot.png.manifest.json', 'shot_00.png']);
  });

  it('refuses a queued output outside the write roots in a project opened inside a root', async () => {
    const l = await layout();
    const path = await project(l, join(l.root, 'in.png'), join(l.outside, 'shot_[##].png'));
    const engine = confined(l);
    expect(codeOf(await engine.execute('project.open', { path }))).toBe('ok');
    expect(codeOf(await engine.execute('renderQueue.render', {}))).toBe('path_outside_roots');
    expect(await readdir(l.outside)).toEqual(['secret.png']);
  });

  it('refuses a render whose output directory became a symlink out after it was queued', async () => {
    const l = await layout();
    await mkdir(join(l.root, 'renders'));
    const engine = confined(l);
    await engine.execute('comp.new', { width: 16, height: 16, duration: 1, frameRate: 1 });
    const output = join(l.root, 'renders', 'shot_[##].png');
    expect(codeOf(await engine.execute('renderQueue.add', { comp: 'comp_1', output }))).toBe('ok');
    renameSync(join(l.root, 'renders'), join(l.root, 'renders-old'));
    symlinkSync(l.outside, join(l.root, 'renders'));
    expect(codeOf(await engine.execute('renderQueue.render', {}))).toBe('path_outside_roots');
    expect(await readdir(l.outside)).toEqual(['secret.png']);
  });

  it('refuses a render whose footage is outside the roots', async () => {
    const l = await layout();
    const path = await project(l, join(l.outside, 'secret.png'), join(l.root, 'shot_[##].png'));
    const engine = confined(l);
    expect(codeOf(await engine.execute('project.open', { path }))).toBe('ok');
    const refused = await engine.execute('renderQueue.render', {});
    expect(codeOf(refused)).toBe('path_outside_roots');
    // Named as the footage item it is, not as "renderQueue.render reads [0]".
    expect(!refused.ok && refused.error.message).toMatch(/^"footage secret \(\w+\)": /);
    expect(existsSync(join(l.root, 'shot_00.png'))).toBe(false);
  });

  it('does not read footage that became a symlink out after the check', async () => {
    const l = await layout();
    const path = await project(l, join(l.root, 'in.png'), join(l.root, 'shot_[##].png'));
    const c = createConfinement({ readRoots: [l.ro], writeRoots: [l.root] });
    const guard = (command: AnyCommand, params: unknown, view: Parameters<typeof c.guard>[2]) => {
      const r = c.guard(command, params, view);
      if (!r && command.id === 'renderQueue.render') {
        renameSync(join(l.root, 'in.png'), join(l.root, 'was-in.png'));
        symlinkSync(join(l.outside, 'secret.png'), join(l.root, 'in.png'));
      }
      return r;
    };
    const engine = confined(l, { ...c, guard });
    expect(codeOf(await engine.execute('project.open', { path }))).toBe('ok');
    const r = await engine.execute('renderQueue.render', {});
    // The job reports the refused read (as a failed item, or as the command's error), never the pixels.
    expect(JSON.stringify(r)).toContain('path_outside_roots');
    expect(existsSync(join(l.root, 'shot_00.png'))).toBe(false);
  });
});

describe('render outputs swapped after the check', () => {
  // The guard passes, then the output directory is swapped for a symlink out before the job opens it: the job
  // opens output folders through the confinement, which refuses. More races: render-swap.test.ts.
  it('does not write frames outside when the output directory becomes a symlink out mid-flight', async () => {
    const l = await layout();
    await mkdir(join(l.root, 'out'));
    const c = createConfinement({ readRoots: [], writeRoots: [l.root] });
    const guard = (command: AnyCommand, params: unknown, view: Parameters<typeof c.guard>[2]) => {
      const r = c.guard(command, params, view);
      if (!r && command.id === 'renderQueue.render') {
        renameSync(join(l.root, 'out'), join(l.root, 'out-old'));
        symlinkSync(l.outside, join(l.root, 'out'));
      }
      return r;
    };
    const engine = confined(l, { ...c, guard });
    await engine.execute('comp.new', { width: 16, height: 16, duration: 1, frameRate: 1 });
    await engine.execute('renderQueue.add', { comp: 'comp_1', output: join(l.root, 'out', 'f_[##].png') });
    const r = await engine.execute<{ items: Array<{ status: string; error?: { code: string } }> }>(
      'renderQueue.render',
      {},
    );
    expect(r.ok && r.result.items[0]).toMatchObject({
      status: 'failed',
      error: { code: 'path_outside_roots' },
    });
    expect(await readdir(l.outside)).toEqual(['secret.png']);
    expect(await readdir(join(l.root, 'out-old'))).toEqual([]);
  });
});

describe('frame.preview and frame.save while confined', () => {
  /** How many pixels of a PNG are the outside file's pure blue. */
  async function bluePixels(pngBase64: string): Promise<number> {
    const { data, info } = await sharp(Buffer.from(pngBase64, 'base64'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    let n = 0;
    for (let i = 0; i < data.length; i += info.channels)
      if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 255) n++;
    return n;
  }

  it('previews footage inside the roots', async () => {
    const l = await layout();
    const path = await project(l, join(l.root, 'in.png'), join(l.root, 'shot_[##].png'));
    const engine = confined(l);
    await engine.execute('project.open', { path });
    const r = await engine.execute<{ png: string; warnings: string[] }>('frame.preview', {});
    expect(codeOf(r)).toBe('ok');
    if (r.ok) expect(r.result.warnings).toEqual([]);
  });

  it('never shows the pixels of footage outside the roots, and refuses to save a frame of it', async () => {
    const l = await layout();
    const path = await project(l, join(l.outside, 'secret.png'), join(l.root, 'shot_[##].png'));
    // Unconfined, the blue outside footage is visible: the check below can fail.
    const free = createSession().engine;
    await free.execute('project.open', { path });
    const shown = await free.execute<{ png: string }>('frame.preview', {});
    if (!shown.ok) throw new Error(JSON.stringify(shown.error));
    expect(await bluePixels(shown.result.png)).toBeGreaterThan(0);

    const engine = confined(l);
    expect(codeOf(await engine.execute('project.open', { path }))).toBe('ok');
    // The footage a frame draws is declared (readsFiles) and checked before drawing, as in bridge mode.
    expect(codeOf(await engine.execute('frame.preview', {}))).toBe('path_outside_roots');
    const saved = await engine.execute('frame.save', { path: join(l.root, 'still.png') });
    expect(codeOf(saved)).toBe('path_outside_roots');
    expect(existsSync(join(l.root, 'still.png'))).toBe(false);
  });

  it('refuses a preview of footage outside the roots nested in precomps, and previews the rest', async () => {
    const l = await layout();
    const path = await project(l, join(l.outside, 'secret.png'), join(l.root, 'shot_[##].png'));
    const free = createSession().engine;
    await free.execute('project.open', { path });
    // Top nests Mid, which nests comp_1 (the footage); Clean holds a solid only.
    for (const step of [
      ['comp.new', { name: 'Mid', width: 16, height: 16, duration: 1 }],
      ['layer.addPrecomp', { comp: 'Mid', source: 'comp_1' }],
      ['comp.new', { name: 'Top', width: 16, height: 16, duration: 1 }],
      ['layer.addPrecomp', { comp: 'Top', source: 'Mid' }],
      ['comp.new', { name: 'Clean', width: 16, height: 16, duration: 1 }],
      ['layer.addSolid', { comp: 'Clean', color: '#00ff00' }],
      ['project.save', {}],
    ] as const)
      expect(codeOf(await free.execute(step[0], step[1]))).toBe('ok');

    const engine = confined(l);
    expect(codeOf(await engine.execute('project.open', { path }))).toBe('ok');
    for (const comp of ['Top', 'Mid', 'comp_1']) {
      expect(codeOf(await engine.execute('frame.preview', { comp }))).toBe('path_outside_roots');
      expect(codeOf(await engine.execute('frame.save', { comp, path: join(l.root, 'a.png') }))).toBe(
        'path_outside_roots',
      );
    }
    expect(existsSync(join(l.root, 'a.png'))).toBe(false);
    const clean = await engine.execute<{ png: string }>('frame.preview', { comp: 'Clean' });
    expect(codeOf(clean)).toBe('ok');
  });

  it('refuses frame.save and a preview written to a path outside or through a symlinked directory out', async () => {
    const l = await layout();
    symlinkSync(l.outside, join(l.root, 'stills'));
    const engine = confined(l);
    await engine.execute('comp.new', { width: 16, height: 16, duration: 1 });
    expect(codeOf(await engine.execute('frame.save', { path: join(l.outside, 'a.png') }))).toBe(
      'path_outside_roots',
    );
    expect(codeOf(await engine.execute('frame.save', { path: join(l.root, 'stills', 'a.png') }))).toBe(
      'path_outside_roots',
    );
    // A preview written to disk is checked the same way.
    expect(codeOf(await engine.execute('frame.preview', { output: join(l.outside, 'p.png') }))).toBe(
      'path_outside_roots',
    );
    expect(codeOf(await engine.execute('frame.preview', { output: join(l.root, 'stills', 'p.png') }))).toBe(
      'path_outside_roots',
    );
    expect(await readdir(l.outside)).toEqual(['secret.png']);
    expect(codeOf(await engine.execute('frame.preview', { output: join(l.root, 'p.png') }))).toBe('ok');
    expect(codeOf(await engine.execute('frame.save', { path: join(l.root, 'a.png') }))).toBe('ok');
    expect(existsSync(join(l.root, 'a.png'))).toBe(true);
  });
});

describe('a sound file outside the roots, in a project opened inside one', () => {
  /** A 1 s project in the write root: a still inside it, music outside; a PNG and a WAV queued. */
  async function withOutsideMusic(l: Layout): Promise<string> {
    const music = await tone(l.outside, { freq: 440, seconds: 1 });
    const free = createSession().engine;
    await free.execute('comp.new', { width: 16, height: 16, duration: 1, frameRate: 2 });
    for (const path of [join(l.root, 'in.png'), music]) {
      const imported = await free.execute<{ id: string }>('file.import', { path });
      if (!imported.ok) throw new Error(JSON.stringify(imported.error));
      await free.execute('layer.addFootage', { footage: imported.result.id });
    }
    await mkdir(join(l.root, 'out'));
    await free.execute('renderQueue.add', { comp: 'comp_1', output: join(l.root, 'out', 'f_[#].png') });
    await free.execute('renderQueue.add', {
      comp: 'comp_1',
      output: join(l.root, 'out', 'quiet.mp4'),
      audio: false,
    });
    await free.execute('renderQueue.add', { comp: 'comp_1', output: join(l.root, 'out', 'mix.wav') });
    const path = join(l.root, 'music.ecproj');
    await free.execute('project.save', { path });
    return path;
  }

  itWithFfmpeg(
    'frames and renders without sound draw (they never read it); a render with sound is refused naming the file',
    async () => {
      const l = await layout();
      const path = await withOutsideMusic(l);
      const engine = confined(l);
      expect(codeOf(await engine.execute('project.open', { path }))).toBe('ok');
      expect(codeOf(await engine.execute('frame.preview', { comp: 'comp_1', time: 0 }))).toBe('ok');
      const items = engine.document.renderQueue.map((q) => q.id);
      expect(codeOf(await engine.execute('renderQueue.render', { items: items.slice(0, 2) }))).toBe('ok');
      expect((await readdir(join(l.root, 'out'))).sort()).toEqual([
        'f.png.manifest.json',
        'f_0.png',
        'f_1.png',
        'quiet.mp4',
        'quiet.mp4.manifest.json',
      ]);
      const heard = await engine.execute('renderQueue.render', { items: [items[2]] });
      expect(codeOf(heard)).toBe('path_outside_roots');
      expect(heard.ok ? '' : heard.error.message).toContain(join(l.outside, 'tone-440-1.wav'));
      expect(await readdir(join(l.root, 'out'))).not.toContain('mix.wav');
    },
  );
});
