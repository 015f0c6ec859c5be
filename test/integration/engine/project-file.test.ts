import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_VERSION, type Composition } from '../../../src/engine/index.js';
import { valueAt } from '../../../src/engine/keyframes.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';
import { canMount, mountTmpfs } from '../../helpers/tmpfs.js';

/** A layer as a file holds it, for edits by hand. */
type Layerish = {
  effects: { params: Record<string, unknown> }[] & unknown[];
  transform: { opacity: { keyframes: unknown[] } };
};

async function richEngine() {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'Inner', width: 100, height: 100 });
  await run(engine, 'comp.new', { name: 'Main', width: 320, height: 180, backgroundColor: '#112233' });
  await run(engine, 'layer.addSolid', { color: 'red', name: 'Bg' });
  await run(engine, 'layer.addText', { text: 'Hello', name: 'Title', strokeColor: 'black' });
  await run(engine, 'layer.addShape', {
    shape: {
      type: 'path',
      points: [
        [0, 0],
        [10, 10],
        [0, 20],
      ],
    },
  });
  await run(engine, 'layer.addPrecomp', { source: 'Inner' });
  await run(engine, 'layer.setParent', { layer: 'Title', parent: 'Bg' });
  await run(engine, 'layer.setTrackMatte', { layer: 'Bg', matte: 'Title', mode: 'luma' });
  await run(engine, 'property.setKeyframe', {
    layer: 'Title',
    property: 'position',
    time: 1,
    value: [5, 5],
    easeIn: [0.2, 1],
  });
  await run(engine, 'effect.add', { layer: 'Bg', effect: 'glow' });
  await run(engine, 'renderQueue.add', {
    comp: 'Main',
    output: '/tmp/ec/out_[####].png',
    frameRange: { start: 0, end: 9 },
  });
  return engine;
}

const exec = promisify(execFile);

describe('project files', () => {
  it('round trip: save then open gives the same document', async () => {
    const dir = await tempDir();
    const engine = await richEngine();
    const path = join(dir, 'shot.ecproj');
    const saved = await run<{ path: string; bytes: number }>(engine, 'project.save', { path });
    expect(saved.path).toBe(path);
    const text = await readFile(path, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ format: 'effectcraft-project', version: PROJECT_VERSION });
    expect(saved.bytes).toBe(Buffer.byteLength(text));
    const other = newEngine();
    await run(other, 'project.open', { path });
    expect(other.document).toEqual(engine.document);
    expect(other.projectPath).toBe(path);
    expect(other.view.canUndo).toBe(false);
    // Saving the re-opened project writes identical bytes.
    await run(other, 'project.save', {});
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('save needs a path the first time and an .ecproj extension', async () => {
    const engine = newEngine();
    expect(await fails(engine, 'project.save', {})).toBe('bad_argument');
    const dir = await tempDir();
    expect(await fails(engine, 'project.save', { path: join(dir, 'x.json') })).toBe('bad_argument');
    expect(await fails(engine, 'project.save', { path: join(dir, 'missing-dir', 'x.ecproj') })).toBe(
      'no_such_file',
    );
  });

  itWithFfmpeg('refuses to save over a footage file the project uses, and the file stays', async () => {
    const dir = await tempDir();
    // A clip named like a project: ffprobe reads it by its content, so it imports.
    const clip = join(dir, 'clip.ecproj');
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=s=32x24:r=10:d=0.3'],
      ...['-f', 'mp4', clip],
    ]);
    const before = await readFile(clip);
    const engine = newEngine();
    await run(engine, 'file.import', { path: clip });
    // Until 2026-12-07 the save replaced the clip with the project.
    const r = await engine.execute('project.save', { path: clip });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('bad_argument');
      expect(r.error.message).toContain('would replace the file of footage "clip"');
      expect(r.error.remediation).toBe('Save the project to another path.');
    }
    expect((await readFile(clip)).equals(before)).toBe(true);
    await run(engine, 'project.save', { path: join(dir, 'p.ecproj') });
  });

  it('saves atomically: no temporary left behind and the old file survives a failed save', async () => {
    const dir = await tempDir();
    const engine = await richEngine();
    const path = join(dir, 'p.ecproj');
    await run(engine, 'project.save', { path });
    const first = await readFile(path, 'utf8');
    await run(engine, 'layer.addNull');
    await run(engine, 'project.save', {});
    expect(await readdir(dir)).toEqual(['p.ecproj']);
    expect(await readFile(path, 'utf8')).not.toBe(first);
  });

  it.skipIf(!canMount)(
    'a full disk fails the save with io_error, keeps the previous file and leaves no temporary',
    async () => {
      const fs = await mountTmpfs('64k');
      if (!fs) return expect.fail('mount failed although running as root');
      try {
        const engine = await richEngine();
        const path = join(fs.dir, 'p.ecproj');
        await run(engine, 'project.save', { path });
        const first = await readFile(path, 'utf8');
        for (let i = 0; i < 60; i++) await run(engine, 'layer.addText', { text: 'x'.repeat(1000) });
        expect(await fails(engine, 'project.save', {})).toBe('io_error');
        expect(await readFile(path, 'utf8')).toBe(first);
        expect(await readdir(fs.dir)).toEqual(['p.ecproj']);
      } finally {
        await fs.unmount();
      }
    },
  );

  it('incrementAndSave writes name_2, name_3 … beside the file and never overwrites', async () => {
    const dir = await tempDir();
    const engine = await richEngine();
    expect(await fails(engine, 'project.incrementAndSave')).toBe('command_disabled');
    await run(engine, 'project.save', { path: join(dir, 'shot.ecproj') });
    await writeFile(join(dir, 'shot_3.ecproj'), 'keep me');
    expect((await run<{ path: string }>(engine, 'project.incrementAndSave')).path).toBe(
      join(dir, 'shot_2.ecproj'),
    );
    expect((await run<{ path: string }>(engine, 'project.incrementAndSave')).path).toBe(
      join(dir, 'shot_4.ecproj'),
    );
    expect(engine.projectPath).toBe(join(dir, 'shot_4.ecproj'));
    expect(await readFile(join(dir, 'shot_3.ecproj'), 'utf8')).toBe('keep me');
    expect((await readdir(dir)).sort()).toEqual([
      'shot.ecproj',
      'shot_2.ecproj',
      'shot_3.ecproj',
      'shot_4.ecproj',
    ]);
  });

  it('corrupt, truncated, foreign and newer files are refused and the open document is unchanged', async () => {
    const dir = await tempDir();
    const engine = await richEngine();
    const good = join(dir, 'good.ecproj');
    await run(engine, 'project.save', { path: good });
    const text = await readFile(good, 'utf8');
    const doc = JSON.parse(text);
    const layers = doc.items[1].layers;
    const precomp = layers.find((l: { source: { kind: string } }) => l.source.kind === 'precomp');
    const cases: Record<string, string> = {
      empty: '',
      truncated: text.slice(0, Math.floor(text.length / 2)),
      notJson: 'hello',
      array: '[]',
      foreign: JSON.stringify({ ...doc, format: 'aep' }),
      newer: JSON.stringify({ ...doc, version: PROJECT_VERSION + 1 }),
      noVersion: JSON.stringify({ ...doc, version: undefined }),
      badField: JSON.stringify({ ...doc, items: [{ ...doc.items[0], width: -5 }, doc.items[1]] }),
      unknownKey: JSON.stringify({ ...doc, extra: true }),
      danglingParent: JSON.stringify({
        ...doc,
        items: [
          doc.items[0],
          {
            ...doc.items[1],
            layers: layers.map((l: { parent: unknown }) => ({ ...l, parent: 'layer_999' })),
          },
        ],
      }),
      duplicateIds: JSON.stringify({
        ...doc,
        items: [doc.items[0], { ...doc.items[1], id: doc.items[0].id }],
      }),
      badActive: JSON.stringify({ ...doc, activeComp: 'comp_404' }),
      // Inner holds a precomp of Main, which holds Inner: a loop no command would make.
      precompLoop: JSON.stringify({
        ...doc,
        items: [
          {
            ...doc.items[0],
            layers: [{ ...precomp, id: 'layer_loop', source: { kind: 'precomp', comp: doc.items[1].id } }],
          },
          doc.items[1],
        ],
      }),
      // Title's parent is Bg; Bg's parent made Title.
      parentLoop: JSON.stringify({
        ...doc,
        items: [
          doc.items[0],
          {
            ...doc.items[1],
            layers: layers.map((l: { name: string }) =>
              l.name === 'Bg'
                ? { ...l, parent: layers.find((t: { name: string }) => t.name === 'Title').id }
                : l,
            ),
          },
        ],
      }),
      stringVersion: JSON.stringify({ ...doc, version: '1' }),
      binary: '\u0000\u0001\u0002ELF\u001b[31m',
      controlChars: '{"format": \u001b[2J',
    };
    const other = newEngine();
    await run(other, 'project.open', { path: good });
    const before = other.document;
    for (const [name, content] of Object.entries(cases)) {
      const path = join(dir, `${name}.ecproj`);
      await writeFile(path, content);
      const r = await other.execute('project.open', { path });
      expect(r, name).toMatchObject({ ok: false, error: { code: 'invalid_project' } });
      if (!r.ok) expect(r.error.message, name).toContain(path);
      // eslint-disable-next-line no-control-regex
      if (!r.ok) expect(r.error.message, name).not.toMatch(/[\u0000-\u001f]/);
      expect(other.document, name).toBe(before);
      expect(other.projectPath).toBe(good);
    }
    // Each says what is wrong in its own words.
    const said = {
      precompLoop: 'contains itself through precomp layers ("Inner" > "Main" > "Inner")',
      parentLoop: 'is its own parent',
      stringVersion: '"version" is "1", not a number',
      noVersion: '"version" is missing',
    };
    for (const [name, words] of Object.entries(said)) {
      const r = await other.execute('project.open', { path: join(dir, `${name}.ecproj`) });
      if (!r.ok) expect(r.error.message, name).toContain(words);
    }
    expect(await fails(other, 'project.open', { path: join(dir, 'nope.ecproj') })).toBe('no_such_file');
    const newer = await other.execute('project.open', { path: join(dir, 'newer.ecproj') });
    if (!newer.ok) expect(newer.error.remediation).toMatch(/upgrade/i);
  });

  it('keyframes a file lists out of time order are read in time order', async () => {
    // Opacity keys at 2 s (100), 0 s (0) and 1 s (0) read 100 at every time: the interpolation searches the keys
    // in order, and the file was taken as written.
    const engine = await richEngine();
    const dir = await tempDir();
    const path = join(dir, 'unsorted.ecproj');
    await run(engine, 'project.save', { path });
    const doc = JSON.parse(await readFile(path, 'utf8'));
    const bg = doc.items[1].layers.find((l: { name: string }) => l.name === 'Bg');
    bg.transform.opacity.keyframes = [2, 0, 1].map((time) => ({
      time,
      value: time === 2 ? 100 : 0,
      interpolation: 'linear',
    }));
    await writeFile(path, JSON.stringify(doc, null, 2));
    const opened = newEngine();
    await run(opened, 'project.open', { path });
    const at = (t: number) =>
      valueAt(
        (opened.document.items[1] as Composition).layers.find((l) => l.name === 'Bg')!.transform.opacity,
        t,
      );
    expect([0, 0.5, 1, 1.5, 2].map(at)).toEqual([0, 0, 0, 50, 100]);
  });

  it('a value no command would take (out of range, of another type) is refused at open, naming where', async () => {
    // A blur radius of 1e9 rendered (a frame in three times the memory), a colour as a radius drew a wrong
    // picture, an opacity keyframe of 250 drew nothing different from 100: all without a word.
    const engine = await richEngine();
    const dir = await tempDir();
    const path = join(dir, 'edited.ecproj');
    await run(engine, 'project.save', { path });
    const saved = JSON.parse(await readFile(path, 'utf8'));
    const open = async (edit: (bg: Layerish) => void) => {
      const doc = structuredClone(saved);
      edit(doc.items[1].layers.find((l: { name: string }) => l.name === 'Bg'));
      await writeFile(path, JSON.stringify(doc, null, 2));
      const other = newEngine();
      const r = await other.execute('project.open', { path });
      // Refused: nothing of the file was taken in.
      if (!r.ok) expect(other.document.items).toEqual([]);
      return r.ok ? null : r.error;
    };
    const glow = (bg: Layerish) => bg.effects[0]!.params;
    const radius = await open((bg) => (glow(bg).radius = { value: 1e9, keyframes: [] }));
    expect(radius).toMatchObject({ code: 'invalid_project' });
    expect(radius!.message).toMatch(
      /layer "Bg" of "Main": Invalid value for "effects\.fx_\d+\.radius": expected a number <= \d+, got 1000000000\./,
    );
    expect(radius!.remediation).toMatch(/Correct that value in the file/);
    const colour = await open((bg) => (glow(bg).radius = { value: '#ff0000', keyframes: [] }));
    expect(colour?.message).toMatch(/"effects\.fx_\d+\.radius": expected a finite number, got "#ff0000"/);
    const key = await open(
      (bg) =>
        (bg.transform.opacity.keyframes = [
          { time: 0, value: 0, interpolation: 'linear' },
          { time: 1, value: 250, interpolation: 'linear' },
        ]),
    );
    expect(key?.message).toMatch(
      /"transform\.opacity": expected a number <= 100, got 250 \(keyframe 1 at 1 s\)\./,
    );
    // A value at the edge of its range opens, as do parameters of an effect type this version does not know
    // (the renderer skips that effect with a warning).
    expect(await open((bg) => (glow(bg).radius = { value: 0, keyframes: [] }))).toBeNull();
    expect(
      await open((bg) => bg.effects.push({ id: 'fx_99', type: 'future', enabled: true, params: {} })),
    ).toBeNull();
  });

  it('resolves relative footage paths against the project folder', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'media'));
    const doc = {
      format: 'effectcraft-project',
      version: 1,
      name: 'rel',
      items: [
        {
          type: 'footage',
          id: 'footage_1',
          name: 'logo',
          path: 'media/logo.png',
          width: 4,
          height: 4,
          format: 'png',
        },
      ],
      renderQueue: [],
      activeComp: null,
      nextId: 1,
    };
    await writeFile(join(dir, 'rel.ecproj'), JSON.stringify(doc));
    const engine = newEngine();
    await run(engine, 'project.open', { path: join(dir, 'rel.ecproj') });
    expect(engine.document.items[0]).toMatchObject({ path: join(dir, 'media/logo.png') });
    // nextId is repaired so new ids never collide with stored ones.
    expect(engine.document.nextId).toBe(2);
  });

  it('project.new and project.close reset the document and history', async () => {
    const engine = await richEngine();
    await run(engine, 'project.new', { name: 'Fresh' });
    expect(engine.document).toMatchObject({ name: 'Fresh', items: [], renderQueue: [] });
    expect(engine.view.canUndo).toBe(false);
    await run(engine, 'comp.new', { width: 1, height: 1 });
    await run(engine, 'project.close');
    expect(engine.document.items).toEqual([]);
  });
});
