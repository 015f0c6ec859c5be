import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Composition } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

async function image(dir: string, name: string, format: 'png' | 'jpeg' | 'webp' | 'gif') {
  const path = join(dir, name);
  await sharp({ create: { width: 8, height: 6, channels: 4, background: '#ff0000' } })
    .toFormat(format)
    .toFile(path);
  return path;
}

describe('file.import', () => {
  it('imports PNG, JPEG, WebP, GIF and SVG stills with their size', async () => {
    const dir = await tempDir();
    const engine = newEngine();
    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
      const path = await image(dir, `a.${format}`, format);
      const r = await run<{ id: string; width: number; height: number; format: string }>(
        engine,
        'file.import',
        { path },
      );
      expect(r).toMatchObject({ width: 8, height: 6, format });
    }
    const svg = join(dir, 'logo.svg');
    await writeFile(
      svg,
      '<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"><rect width="30" height="20" fill="blue"/></svg>',
    );
    expect(await run(engine, 'file.import', { path: svg, name: 'Logo' })).toMatchObject({
      width: 30,
      height: 20,
      format: 'svg',
    });
    expect(engine.document.items.map((i) => i.name)).toEqual(['a', 'a 2', 'a 3', 'a 4', 'Logo']);
    await run(engine, 'comp.new', { width: 100, height: 100 });
    await run(engine, 'layer.addFootage', { footage: 'Logo' });
    const layer = (engine.document.items.find((i) => i.type === 'composition') as Composition).layers[0]!;
    expect(layer.transform.anchorPoint.value).toEqual([15, 10]);
  });

  it('refuses missing files and non-images with clear codes', async () => {
    const dir = await tempDir();
    const engine = newEngine();
    expect(await fails(engine, 'file.import', { path: join(dir, 'none.png') })).toBe('no_such_file');
    await writeFile(join(dir, 'notes.txt'), 'hello');
    expect(await fails(engine, 'file.import', { path: join(dir, 'notes.txt') })).toBe('unsupported_format');
    expect(await fails(engine, 'file.import', { path: dir })).toBe('bad_argument');
    expect(engine.document.items).toEqual([]);
  });
});

describe('file.runScript', () => {
  it('runs commands through app.run; each edit is its own undo step; logs are returned', async () => {
    const dir = await tempDir();
    const path = join(dir, 'build.js');
    await writeFile(
      path,
      `const { id } = await app.run('comp.new', { width: 64, height: 64, name: 'Scripted' });
       await app.run('layer.addSolid', { color: 'red' });
       app.log('made', id, app.document.items.length);
       return { id };`,
    );
    const engine = newEngine();
    const r = await run<{ result: { id: string }; logs: string[]; commands: number }>(
      engine,
      'file.runScript',
      { path },
    );
    expect(r).toEqual({ result: { id: 'comp_1' }, logs: ['made comp_1 1'], commands: 2 });
    await run(engine, 'edit.undo');
    expect((engine.document.items[0] as Composition).layers).toHaveLength(0);
  });

  it('reports syntax errors and failing commands as errors', async () => {
    const dir = await tempDir();
    const engine = newEngine();
    await writeFile(join(dir, 'bad.js'), 'this is not javascript(');
    expect(await fails(engine, 'file.runScript', { path: join(dir, 'bad.js') })).toBe('bad_argument');
    await writeFile(join(dir, 'fail.js'), "await app.run('layer.delete', { layer: 'x' });");
    expect(await fails(engine, 'file.runScript', { path: join(dir, 'fail.js') })).toBe('command_disabled');
    await writeFile(join(dir, 'throw.js'), "throw new Error('nope');");
    expect(await fails(engine, 'file.runScript', { path: join(dir, 'throw.js') })).toBe('tool_failed');
  });
});

describe('file.executeFile and file.revealInFinder', () => {
  it('say missing_dependency when no desktop handler exists', async () => {
    const dir = await tempDir();
    const path = await image(dir, 'a.png', 'png');
    const engine = newEngine();
    const saved = process.env.PATH;
    process.env.PATH = dir; // nothing runnable: no xdg-open, no which
    try {
      expect(await fails(engine, 'file.executeFile', { path })).toBe('missing_dependency');
      expect(await fails(engine, 'file.revealInFinder', { path })).toBe('missing_dependency');
    } finally {
      process.env.PATH = saved;
    }
    expect(await fails(engine, 'file.executeFile', { path: join(dir, 'missing.png') })).toBe('no_such_file');
  });

  // An xdg-open that behaves as Debian's does without a desktop session: a line per browser it tried, exit 3.
  it.skipIf(process.platform === 'darwin')(
    'say missing_dependency in one line when xdg-open finds no application (a headless machine)',
    async () => {
      const dir = await tempDir();
      const path = await image(dir, 'a.png', 'png');
      const bin = join(dir, 'bin');
      await mkdir(bin);
      const fake = (code: number) =>
        `#!/bin/sh\nfor b in www-browser links2 lynx w3m; do echo "/usr/bin/xdg-open: 882: $b: not found" >&2; done\necho "xdg-open: no method available for opening '$1'" >&2\nexit ${code}\n`;
      await writeFile(join(bin, 'xdg-open'), fake(3));
      await chmod(join(bin, 'xdg-open'), 0o755);
      const engine = newEngine();
      const saved = process.env.PATH;
      process.env.PATH = `${bin}:${saved}`;
      try {
        for (const id of ['file.executeFile', 'file.revealInFinder']) {
          const r = await engine.execute(id, { path });
          expect(r.ok, id).toBe(false);
          if (r.ok) continue;
          expect(r.error.code, id).toBe('missing_dependency');
          expect(r.error.message, id).not.toContain('\n');
          expect(r.error.message, id).not.toContain('882');
          expect(r.error.message, id).toContain('No desktop application');
        }
        // Any other failure stays tool_failed, in one line too.
        await writeFile(join(bin, 'xdg-open'), fake(4));
        const other = await engine.execute('file.executeFile', { path });
        expect(other.ok ? null : other.error.code).toBe('tool_failed');
        expect(other.ok ? '' : other.error.message).not.toContain('\n');
      } finally {
        process.env.PATH = saved;
      }
    },
  );
});
