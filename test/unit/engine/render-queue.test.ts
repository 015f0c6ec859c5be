import { describe, expect, it } from 'vitest';
import { Engine, engineCommands } from '../../../src/engine/index.js';
import { createNodePorts } from '../../../src/engine/node-ports.js';
import { fails, newEngine, run } from '../../helpers/engine.js';

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
      commands: engineCommands({
        renderStatus: (id) =>
          id === 'rq_2' ? { status: 'rendering', framesDone: 4, framesTotal: 20, files: 4 } : undefined,
      }),
      ports: createNodePorts(),
    });
    await withComp(engine);
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/a_[###].png' });
    const list = await run<{ items: { status: string; framesDone: number }[] }>(engine, 'renderQueue.list');
    expect(list.items[0]).toMatchObject({ status: 'rendering', framesDone: 4 });
  });
});
