/**
 * Values that are legal but most likely in the wrong unit are applied, with a warning that says what they mean
 * and what was probably meant: a scale factor where percent is meant, a fraction for an opacity in percent,
 * frames where seconds are meant (a keyframe or a layer the composition never reaches). Likely values stay quiet.
 */
import { describe, expect, it } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';

async function setup() {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'Main', width: 64, height: 64, frameRate: 30, duration: 5 });
  const { id } = await run<{ id: string }>(engine, 'layer.addSolid', { color: '#ff0000' });
  const exec = (cmd: string, params: Record<string, unknown>) =>
    engine.execute(cmd, { layer: id, ...params });
  return { engine, id, exec };
}

const warningsOf = (r: Awaited<ReturnType<ReturnType<typeof newEngine>['execute']>>) => {
  expect(r.ok).toBe(true);
  return r.ok ? (r.warnings ?? []) : [];
};

describe('unit hints', () => {
  it('scale given as a factor, opacity as a fraction: applied, and said what they mean', async () => {
    const { engine, exec } = await setup();
    const [scale] = warningsOf(
      await exec('property.set', { property: 'transform.scale', value: [1.5, 1.5] }),
    );
    expect(scale).toContain(
      'transform.scale is in percent: [1.5, 1.5] draws the layer at 1.5% by 1.5% of its size',
    );
    expect(scale).toContain('pass [150, 150]');
    const layer = () => engine.document.items.flatMap((i) => (i.type === 'composition' ? i.layers : []))[0]!;
    expect(layer().transform.scale.value).toEqual([1.5, 1.5]);
    const [opacity] = warningsOf(await exec('property.set', { property: 'transform.opacity', value: 0.5 }));
    expect(opacity).toContain('For 50%, pass 50');
    // Without float noise (0.07 * 100 is 7.000000000000001), and 1 taken for "fully opaque".
    const [seven] = warningsOf(await exec('property.set', { property: 'transform.opacity', value: 0.07 }));
    expect(seven).toContain('For 7%, pass 7.');
    const [one] = warningsOf(await exec('property.set', { property: 'transform.opacity', value: 1 }));
    expect(one).toContain('For fully opaque, pass 100');
    const [tenth] = warningsOf(await exec('property.set', { property: 'transform.scale', value: [1.1, 3] }));
    expect(tenth).toContain('at 1.1% by 3% of its size. For factors of 1.1, 3, pass [110, 300]');
    // What people mean: no warning.
    for (const [property, value] of [
      ['transform.scale', [150, 150]],
      ['transform.scale', [0, 0]],
      ['transform.opacity', 50],
      ['transform.opacity', 0],
    ] as const)
      expect(warningsOf(await exec('property.set', { property, value }))).toEqual([]);
  });

  it('a keyframe past the end of the composition says where it is and what frames would be in seconds', async () => {
    const { exec } = await setup();
    const key = (time: number) =>
      exec('property.setKeyframe', { property: 'transform.position', time, value: [10, 10] });
    const [late] = warningsOf(await key(90));
    expect(late).toContain('at 90 s of the composition, past its end (5 s)');
    expect(late).toContain('frame 90 at 30 fps is 3 s');
    expect(warningsOf(await key(4.5))).toEqual([]);
    expect(warningsOf(await key(5))).toEqual([]);
  });

  it('a layer timed wholly outside the composition says it is never seen; partly inside is fine', async () => {
    const { exec } = await setup();
    const [outside] = warningsOf(await exec('layer.setTiming', { inPoint: 60, outPoint: 90 }));
    expect(outside).toContain('wholly outside the composition (0 to 5 s): it is never seen or heard');
    expect(warningsOf(await exec('layer.setTiming', { inPoint: 4, outPoint: 90 }))).toEqual([]);
    expect(warningsOf(await exec('layer.setTiming', { startTime: -100 }))[0]).toContain('wholly outside');
  });
});

describe('out-of-range numbers', () => {
  it('1e400 (Infinity once read) is named as such, not as the null JSON would show', async () => {
    const { exec } = await setup();
    const r = await exec('property.set', { property: 'transform.opacity', value: Infinity });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).not.toContain('got null');
      expect(r.error.message).toContain('got Infinity (a number beyond what a double holds');
    }
  });

  it('a layer time of 1e300 is refused naming it, not as an out point "not after" an in point never sent', async () => {
    const { exec } = await setup();
    const r = await exec('layer.setTiming', { startTime: 1e300 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toContain('"startTime"');
      expect(r.error.message).not.toContain('outPoint');
    }
  });
});
