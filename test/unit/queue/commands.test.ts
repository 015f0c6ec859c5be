import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine, engineCommands } from '../../../src/engine/index.js';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';
import { queueItemCommands } from '../../../src/render/queue/commands/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

async function withComp(engine = newEngine()) {
  await run(engine, 'comp.new', { name: 'Main', width: 64, height: 64, frameRate: 10, duration: 2 });
  return engine;
}

describe('render queue items', () => {
  it('adds items with defaults and the format inferred from the extension', async () => {
    const engine = await withComp();
    const png = await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/shot_[#####].png' });
    expect(png).toEqual({ id: 'rq_2', format: 'png' });
    expect((await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a.mp4' })).format).toBe('mp4');
    expect((await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a.webp' })).format).toBe(
      'webp-anim',
    );
    expect((await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a_[##].webp' })).format).toBe(
      'webp',
    );
    expect(
      (
        await run(engine, 'renderQueue.add', {
          comp: 'Main',
          output: '/out/a_[##].png',
          format: 'png-fast',
          scale: 0.5,
          skipExisting: true,
          frameRange: { start: 2, end: 5 },
          overflow: [{ dir: '/spill', minFreeBytes: 1000 }],
        })
      ).format,
    ).toBe('png-fast');
    expect(engine.document.renderQueue[4]).toEqual({
      id: 'rq_6',
      comp: 'comp_1',
      output: '/out/a_[##].png',
      format: 'png-fast',
      frameRange: { start: 2, end: 5 },
      scale: 0.5,
      skipExisting: true,
      overflow: [{ dir: '/spill', minFreeBytes: 1000 }],
      alpha: false,
      audio: true,
    });
  });

  it('refuses templates that do not fit the format, bad ranges and unknown comps', async () => {
    const engine = await withComp();
    expect(await fails(engine, 'renderQueue.add', { comp: 'Main', output: '/out/shot.png' })).toBe(
      'bad_argument',
    );
    expect(await fails(engine, 'renderQueue.add', { comp: 'Main', output: '/out/shot_[##].mp4' })).toBe(
      'bad_argument',
    );
    expect(await fails(engine, 'renderQueue.add', { comp: 'Main', output: '/out/shot.xyz' })).toBe(
      'unsupported_format',
    );
    // A frame field in a folder name would write every frame under one file name.
    expect(await fails(engine, 'renderQueue.add', { comp: 'Main', output: '/out_[##]/shot.png' })).toBe(
      'bad_argument',
    );
    expect(
      await fails(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a_[#].png', format: 'jpeg' }),
    ).toBe('bad_argument');
    expect(
      await fails(engine, 'renderQueue.add', {
        comp: 'Main',
        output: '/out/a_[#].png',
        frameRange: { start: 5, end: 2 },
      }),
    ).toBe('bad_argument');
    expect(
      await fails(engine, 'renderQueue.add', {
        comp: 'Main',
        output: '/out/a_[#].png',
        frameRange: { start: 0, end: 20 },
      }),
    ).toBe('bad_argument');
    expect(await fails(engine, 'renderQueue.add', { comp: 'Nope', output: '/out/a_[#].png' })).toBe(
      'not_found',
    );
    expect(await fails(engine, 'renderQueue.add', { comp: 'Main', output: 'relative_[#].png' })).toBe(
      'bad_argument',
    );
    expect(
      await fails(engine, 'renderQueue.add', {
        comp: 'Main',
        output: '/out/a.mp4',
        overflow: [{ dir: '/x' }],
      }),
    ).toBe('bad_argument');
    expect(engine.document.renderQueue).toEqual([]);
  });

  it('refuses outputs larger than 8192 pixels a side', async () => {
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'Big', width: 4096, height: 2160 });
    expect(
      await fails(engine, 'renderQueue.add', { comp: 'Big', output: '/out/a_[#].png', scale: 2.5 }),
    ).toBe('bad_argument');
    expect(await fails(engine, 'comp.new', { width: 8193, height: 10 })).toBe('bad_argument');
    await run(engine, 'renderQueue.add', { comp: 'Big', output: '/out/a_[#].png', scale: 2 });
  });

  it('warns when an MP4 or WebM output is odd-sized or a ProRes 4:2:2 MOV is odd-sized (its frames are padded to even sizes); PNG and ProRes 4444 are not', async () => {
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'Odd', width: 1279, height: 719, frameRate: 10, duration: 1 });
    const mp4 = await engine.execute('renderQueue.add', { comp: 'Odd', output: '/out/a.mp4' });
    expect(mp4.ok && mp4.warnings?.join(' ')).toMatch(
      /1279x719 is odd: MP4 video is 4:2:0, .* padded to 1280x720/,
    );
    const png = await engine.execute('renderQueue.add', { comp: 'Odd', output: '/out/a_[#].png' });
    expect(png.ok && png.warnings).toBeFalsy();
    // ProRes 4:2:2 needs an even width only; 4444 and alpha keep any size.
    const mov = await engine.execute('renderQueue.add', { comp: 'Odd', output: '/out/a.mov' });
    expect(mov.ok && mov.warnings?.join(' ')).toMatch(/1279x719 is odd: MOV .* padded to 1280x719/);
    for (const extra of [{ alpha: true }, { encoding: { proresProfile: '4444' } }]) {
      const full = await engine.execute('renderQueue.add', { comp: 'Odd', output: '/out/b.mov', ...extra });
      expect(full.ok && full.warnings).toBeFalsy();
    }
    // A scale that makes it even says nothing; one that makes it odd again says so on update.
    const half = await engine.execute<{ id: string }>('renderQueue.add', {
      comp: 'Odd',
      output: '/out/b.webm',
      scale: 2,
    });
    expect(half.ok && half.warnings).toBeFalsy();
    const back = await engine.execute('renderQueue.update', { id: half.ok ? half.result.id : '', scale: 1 });
    expect(back.ok && back.warnings?.join(' ')).toMatch(/padded to 1280x720/);
    // A scale on a sound-only output does nothing, and says so.
    const wav = await engine.execute('renderQueue.add', { comp: 'Odd', output: '/out/a.wav', scale: 0.5 });
    expect(wav.ok && wav.warnings).toEqual(['scale 0.5 does nothing for WAV, which is sound only.']);
  });

  it('lists items with status, removes and clears', async () => {
    const engine = await withComp();
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a_[###].png' });
    await run(engine, 'renderQueue.add', {
      comp: 'Main',
      output: '/out/b_[###].png',
      frameRange: { start: 3, end: 7 },
    });
    const list = await run<{ items: { id: string; status: string; framesTotal: number }[] }>(
      engine,
      'renderQueue.list',
    );
    expect(list.items.map((i) => [i.id, i.status, i.framesTotal])).toEqual([
      ['rq_2', 'queued', 20],
      ['rq_3', 'queued', 5],
    ]);
    await run(engine, 'renderQueue.remove', { id: 'rq_2' });
    expect(await fails(engine, 'renderQueue.remove', { id: 'rq_2' })).toBe('not_found');
    expect(await run(engine, 'renderQueue.clear')).toEqual({ removed: 1 });
    expect(engine.document.renderQueue).toEqual([]);
  });

  it('renderQueue.list reports live statuses from the render service', async () => {
    const engine = new Engine({
      commands: [
        ...engineCommands(),
        ...queueItemCommands((id) =>
          id === 'rq_2' ? { status: 'rendering', framesDone: 4, framesTotal: 20, files: 4 } : undefined,
        ),
      ],
      ports: createNodePorts(),
    });
    await withComp(engine);
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a_[###].png' });
    const list = await run<{ items: { status: string; framesDone: number }[] }>(engine, 'renderQueue.list');
    expect(list.items[0]).toMatchObject({ status: 'rendering', framesDone: 4 });
  });

  it('alpha: accepted for every format that carries alpha, stored on the item, listed', async () => {
    const engine = await withComp();
    const outputs: Array<[string, string]> = [
      ['png', '/out/a_[##].png'],
      ['png-fast', '/out/b_[##].png'],
      ['webp', '/out/c_[##].webp'],
      ['webp-anim', '/out/d.webp'],
      ['gif', '/out/e.gif'],
      ['webm', '/out/f.webm'],
      ['mov', '/out/g.mov'],
    ];
    for (const [format, output] of outputs)
      await run(engine, 'renderQueue.add', { comp: 'Main', output, format, alpha: true });
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/h_[##].png', alpha: false });
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/i_[##].png' });
    expect(engine.document.renderQueue.map((q) => [q.format, q.alpha])).toEqual([
      ...outputs.map(([f]) => [f, true]),
      ['png', false],
      ['png', false],
    ]);
    const list = await run<{ items: { format: string; alpha: boolean }[] }>(engine, 'renderQueue.list');
    expect(list.items.map((i) => i.alpha)).toEqual([...outputs.map(() => true), false, false]);
  });

  it('alpha: refused for jpeg and mp4 (no alpha channel), leaving the document and history unchanged', async () => {
    const engine = await withComp();
    const before = engine.document;
    const undoBefore = engine.view.canUndo;
    for (const params of [
      { comp: 'Main', output: '/out/a_[##].jpg', alpha: true },
      { comp: 'Main', output: '/out/a_[##].png', format: 'jpeg', alpha: true },
      { comp: 'Main', output: '/out/a.mp4', alpha: true },
    ])
      expect(await fails(engine, 'renderQueue.add', params)).toBe('bad_argument');
    expect(engine.document).toBe(before);
    expect(engine.view.canUndo).toBe(undoBefore);
    // Without alpha the same outputs are fine.
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a.mp4', alpha: false });
    expect(await fails(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a.mp4', alpha: 'yes' })).toBe(
      'bad_argument',
    );
  });

  it('a project file written before "alpha" existed opens with alpha false and round-trips', async () => {
    const dir = await tempDir();
    const engine = await withComp();
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a_[##].png' });
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/b.webm', alpha: true });
    const path = join(dir, 'old.ecproj');
    await run(engine, 'project.save', { path });
    // Strip the field from the first item, as an older EffectCraft wrote it (same project version).
    const saved = JSON.parse(await readFile(path, 'utf8')) as {
      version: number;
      renderQueue: Array<Record<string, unknown>>;
    };
    delete saved.renderQueue[0]!.alpha;
    expect(saved.version).toBe(1);
    expect(Object.keys(saved.renderQueue[0]!)).not.toContain('alpha');
    await writeFile(path, JSON.stringify(saved, null, 2));

    const reopened = newEngine();
    await run(reopened, 'project.open', { path });
    expect(reopened.document.renderQueue.map((q) => q.alpha)).toEqual([false, true]);
    const again = join(dir, 'again.ecproj');
    await run(reopened, 'project.save', { path: again });
    const written = JSON.parse(await readFile(again, 'utf8')) as { renderQueue: Array<{ alpha: unknown }> };
    expect(written.renderQueue.map((q) => q.alpha)).toEqual([false, true]);
    const third = newEngine();
    await run(third, 'project.open', { path: again });
    expect(third.document).toEqual(reopened.document);
  });
});

describe('comp.setSettings keeps queued items valid', () => {
  it('refuses a duration or size that would break a queued item; the project still reopens', async () => {
    const dir = await tempDir();
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'C', width: 100, height: 100, frameRate: 10, duration: 10 });
    await run(engine, 'renderQueue.add', {
      comp: 'C',
      output: join(dir, 'f_[###].png'),
      frameRange: { start: 0, end: 99 },
      scale: 4,
    });
    const before = engine.document;
    expect(await fails(engine, 'comp.setSettings', { comp: 'C', duration: 5 })).toBe('bad_argument');
    expect(await fails(engine, 'comp.setSettings', { comp: 'C', width: 4000 })).toBe('bad_argument');
    expect(engine.document).toBe(before);
    // A change the item survives is fine, and the saved project opens again.
    await run(engine, 'comp.setSettings', { comp: 'C', duration: 20, name: 'Longer' });
    await run(engine, 'project.save', { path: join(dir, 'p.ecproj') });
    await run(engine, 'project.open', { path: join(dir, 'p.ecproj') });
  });
});
