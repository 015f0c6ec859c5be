/**
 * Precomp fan-outs: the same precomp at the same time is composed once per frame (memoised), and the nested
 * work of one frame is bounded (composes and depth), checked while the frame renders, not after.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import { createFrameRenderer, type RenderedFrame } from '../../../src/render/index.js';
import { MAX_NESTED_COMPOSES, MAX_NESTING_DEPTH } from '../../../src/render/nesting.js';
import { createSession } from '../../../src/session.js';
import { isEngineError } from '../../../src/engine/errors.js';
import { chainSteps, fanOutSteps, type Step } from '../../helpers/fan-out.js';

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });

async function build(steps: Step[]): Promise<Engine> {
  const { engine } = createSession();
  for (const s of steps) {
    const r = await engine.execute(s.id, s.params);
    if (!r.ok) throw new Error(`${s.id}: ${r.error.message}`);
  }
  return engine;
}

const compId = (engine: Engine, name: string) => engine.document.items.find((i) => i.name === name)!.id;

function render(engine: Engine, name: string): Promise<RenderedFrame> {
  return renderer.renderFrame(engine.document, compId(engine, name), 0, { missingFootage: 'fail' });
}

/** The error code (and message) a render fails with; fails the test when it renders. */
async function failure(p: Promise<unknown>): Promise<{ code: string; message: string; remediation: string }> {
  try {
    await p;
  } catch (err) {
    if (isEngineError(err)) return err.toInfo();
    throw err;
  }
  throw new Error('the render unexpectedly succeeded');
}

describe('precomp fan-outs', () => {
  // Every layer covers the frame with opaque pixels, so the stack shows exactly the leaf: its flat equivalent.
  it.each([6, 8])(
    'renders %i levels of 10 identical precomp layers with the pixels of the leaf',
    async (levels) => {
      const engine = await build(fanOutSteps({ levels, width: 10 }));
      const leaf = await render(engine, 'F0');
      const top = await render(engine, `F${levels}`);
      expect(top.rgba.equals(leaf.rgba)).toBe(true);
      // frame.preview (the session's renderer) agrees, warnings and all.
      const preview = await engine.execute<{ warnings: string[] }>('frame.preview', { comp: `F${levels}` });
      expect(preview.ok && preview.result.warnings).toEqual([]);
    },
  );

  it.each([
    { levels: 8, width: 10 },
    { levels: 2, width: 120 },
  ])(
    'refuses $levels levels of $width precomp layers offset in time with bad_argument, while rendering',
    async (shape) => {
      // Nothing can be shared: 10^8 (or 14,520) different nested frames. Counted as they are composed, the
      // limit is met after MAX_NESTED_COMPOSES of them; counted afterwards, this test would time out.
      const engine = await build(fanOutSteps({ ...shape, offsetTimes: true }));
      const error = await failure(render(engine, `F${shape.levels}`));
      expect(error.code).toBe('bad_argument');
      expect(error.message).toContain(MAX_NESTED_COMPOSES.toLocaleString('en-US'));
      const viaCommand = await engine.execute('frame.preview', { comp: `F${shape.levels}` });
      expect(viaCommand.ok ? 'ok' : viaCommand.error.code).toBe('bad_argument');
      const still = await engine.execute('frame.save', {
        comp: `F${shape.levels}`,
        path: '/nonexistent/x.png',
      });
      expect(still.ok ? 'ok' : still.error.code).toBe('bad_argument');
    },
  );

  it('renders a fan-out that stays within the limit, offset in time', async () => {
    // 3 levels of 20: 20 + 400 + 8,000 = 8,420 nested composes, all different.
    const engine = await build(fanOutSteps({ levels: 3, width: 20, size: 4, offsetTimes: true }));
    const top = await render(engine, 'F3');
    expect(top.width).toBe(4);
  });

  it(`renders precomps nested ${MAX_NESTING_DEPTH} deep and refuses one level more`, async () => {
    const engine = await build(chainSteps(MAX_NESTING_DEPTH + 1));
    const leaf = await render(engine, 'F0');
    expect((await render(engine, `F${MAX_NESTING_DEPTH}`)).rgba.equals(leaf.rgba)).toBe(true);
    const error = await failure(render(engine, `F${MAX_NESTING_DEPTH + 1}`));
    expect(error.code).toBe('bad_argument');
    expect(error.message).toContain(String(MAX_NESTING_DEPTH));
    const viaCommand = await engine.execute('frame.preview', { comp: `F${MAX_NESTING_DEPTH + 1}` });
    expect(viaCommand.ok ? 'ok' : viaCommand.error.code).toBe('bad_argument');
  });
});
