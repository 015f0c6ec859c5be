import { describe, expect, it } from 'vitest';
import { scanPaths } from '../../../src/confinement/deep-scan.js';

describe('scanPaths', () => {
  it('finds absolute paths however deeply nested in arrays and objects, keys included', () => {
    const found = scanPaths({
      name: 'plain text',
      a: [{ b: { c: ['/x/one', 'rel/two'] } }],
      d: { '/x/key': 1 },
      e: 'file:///x/url.png',
      n: 3,
    });
    expect(found.map((f) => [f.param, f.path]).sort()).toEqual(
      [
        ['a.0.b.c.0', '/x/one'],
        ['d.<key /x/key>', '/x/key'],
        ['e', '/x/url.png'],
      ].sort(),
    );
  });

  it('survives very deep nesting', () => {
    let v: unknown = '/deep/path';
    for (let i = 0; i < 20_000; i++) v = [v];
    const found = scanPaths(v);
    expect(found).toHaveLength(1);
    expect(found[0]?.path).toBe('/deep/path');
  });

  it('marks a file URL that is not a local path', () => {
    expect(scanPaths({ u: 'file://remote-host/x' })[0]?.path).toBeNull();
  });
});
