import { describe, expect, it } from 'vitest';
import { cubicBezier, lerpValue, valueAt } from '../../../src/engine/keyframes.js';
import type { Keyframe } from '../../../src/engine/model.js';

const prop = (keyframes: Keyframe[], value: unknown = 0) => ({ value, keyframes }) as never;

describe('valueAt', () => {
  it('returns the static value without keyframes', () => {
    expect(valueAt({ value: 42, keyframes: [] }, 3)).toBe(42);
  });

  it('holds the first and last keyframe values outside the keyed range', () => {
    const p = prop([
      { time: 1, value: 10, interpolation: 'linear' },
      { time: 2, value: 20, interpolation: 'linear' },
    ]);
    expect(valueAt(p, 0)).toBe(10);
    expect(valueAt(p, 5)).toBe(20);
  });

  it('a time a float subtraction puts a hair before a key is on the key', () => {
    // Layer time 0.3 - 0.1 is 0.19999999999999998: a hold key at 0.2 took effect a frame late.
    const p = prop([
      { time: 0, value: 0, interpolation: 'hold' },
      { time: 0.2, value: 100, interpolation: 'hold' },
      { time: 0.5, value: 50, interpolation: 'hold' },
    ]);
    expect(valueAt(p, 0.3 - 0.1)).toBe(100);
    expect(valueAt(p, 0.6 - 0.1)).toBe(50);
    expect(valueAt(p, 0.19)).toBe(0);
  });

  it('interpolates linearly at fractional times', () => {
    const p = prop([
      { time: 0, value: 0, interpolation: 'linear' },
      { time: 2, value: 100, interpolation: 'linear' },
    ]);
    expect(valueAt(p, 0.5)).toBeCloseTo(25, 10);
    expect(valueAt(p, 1.999)).toBeCloseTo(99.95, 6);
  });

  it('interpolates vectors and colours per component', () => {
    const v = prop([
      { time: 0, value: [0, 100], interpolation: 'linear' },
      { time: 1, value: [10, 200], interpolation: 'linear' },
    ]);
    expect(valueAt(v, 0.5)).toEqual([5, 150]);
    const c = prop([
      { time: 0, value: '#000000', interpolation: 'linear' },
      { time: 1, value: '#ffffff', interpolation: 'linear' },
    ]);
    expect(valueAt(c, 0.5)).toBe('#808080');
  });

  it('hold keeps the value until the next keyframe', () => {
    const p = prop([
      { time: 0, value: 1, interpolation: 'hold' },
      { time: 1, value: 2, interpolation: 'linear' },
      { time: 2, value: 3, interpolation: 'linear' },
    ]);
    for (const t of [0, 0.25, 0.5, 0.999]) expect(valueAt(p, t)).toBe(1);
    expect(valueAt(p, 1)).toBe(2);
    expect(valueAt(p, 1.5)).toBeCloseTo(2.5);
  });

  it('bezier easing starts slow and ends slow with easy-ease handles', () => {
    const p = prop([
      { time: 0, value: 0, interpolation: 'bezier' },
      { time: 1, value: 100, interpolation: 'bezier' },
    ]);
    expect(valueAt(p, 0.1)).toBeLessThan(10);
    expect(valueAt(p, 0.5)).toBeCloseTo(50, 1);
    expect(valueAt(p, 0.9)).toBeGreaterThan(90);
  });

  it('uses custom handles as CSS cubic-bezier', () => {
    const p = prop([
      { time: 0, value: 0, interpolation: 'bezier', easeOut: [0.42, 0] },
      { time: 1, value: 1, interpolation: 'bezier', easeIn: [0.58, 1] },
    ]);
    // ease-in-out at x = 0.25: known value ~0.1291
    expect(valueAt(p, 0.25)).toBeCloseTo(0.1291, 3);
  });

  it('finds the right segment among many keyframes', () => {
    const keys: Keyframe[] = Array.from({ length: 100 }, (_, i) => ({
      time: i,
      value: i * 2,
      interpolation: 'linear',
    }));
    expect(valueAt(prop(keys), 57.5)).toBeCloseTo(115);
  });
});

describe('cubicBezier', () => {
  it('is the identity for linear handles and clamps the ends', () => {
    for (const x of [0, 0.1, 0.33, 0.8, 1])
      expect(cubicBezier(1 / 3, 1 / 3, 2 / 3, 2 / 3, x)).toBeCloseTo(x, 6);
    expect(cubicBezier(0.42, 0, 0.58, 1, -1)).toBe(0);
    expect(cubicBezier(0.42, 0, 0.58, 1, 2)).toBe(1);
  });

  it('is monotonic for ease', () => {
    let prev = -1;
    for (let i = 0; i <= 100; i++) {
      const y = cubicBezier(0.25, 0.1, 0.25, 1, i / 100);
      expect(y).toBeGreaterThanOrEqual(prev);
      prev = y;
    }
  });
});

describe('lerpValue', () => {
  it('keeps alpha when blending colours', () => {
    expect(lerpValue('#ff000000', '#ff0000ff', 0.5)).toBe('#ff000080');
  });
});

describe('colours', () => {
  it('accepts hex forms, every CSS colour name and 0..1 arrays; refuses the rest', async () => {
    const { normalizeColor, COLOR_NAMES } = await import('../../../src/engine/color.js');
    expect(normalizeColor('#F80')).toBe('#ff8800');
    expect(normalizeColor('#ff880080')).toBe('#ff880080');
    for (const [name, hex] of [
      ['teal', '#008080'],
      ['Navy', '#000080'],
      ['silver', '#c0c0c0'],
      ['fuchsia', '#ff00ff'],
      ['rebeccapurple', '#663399'],
      [' gold ', '#ffd700'],
      ['transparent', '#00000000'],
    ])
      expect(normalizeColor(name), name).toBe(hex);
    expect(COLOR_NAMES.length).toBe(149);
    expect(normalizeColor([1, 0, 0, 0.5])).toBe('#ff000080');
    for (const bad of ['constructor', 'toString', 'reddish', '#12345', [2, 0, 0], 'rgb(1,2,3)', 42, null])
      expect(normalizeColor(bad), String(bad)).toBe(null);
  });
});
