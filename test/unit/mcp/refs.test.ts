import { describe, expect, it } from 'vitest';
import { FAILED_STEP, resolveRefs } from '../../../src/mcp/tools/refs.js';

describe('resolveRefs', () => {
  const results = [{ id: 'comp_1', size: { w: 10 } }, 'plain', ['a']];

  it('replaces whole-string $N and $N.field references, deep in objects and arrays', () => {
    const r = resolveRefs(
      { comp: '$0.id', w: '$0.size.w', all: ['$1', { x: '$0' }], keep: 'x $0' },
      results,
      3,
    );
    expect(r).toEqual({
      ok: true,
      value: { comp: 'comp_1', w: 10, all: ['plain', { x: results[0] }], keep: 'x $0' },
      refs: ['comp_1', 'plain'],
    });
  });

  it('refuses a reference to a step that has not run', () => {
    const r = resolveRefs({ a: '$2' }, results, 2);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('bad_argument');
  });

  it('refuses a reference to a step that failed, whole or a field of it; "$01" is text', () => {
    for (const ref of ['$1', '$1.id']) {
      const r = resolveRefs({ a: ref }, [{ id: 'comp_1' }, FAILED_STEP], 2);
      expect(r.ok, ref).toBe(false);
      if (!r.ok)
        expect(r.error.message).toBe(`Reference "${ref}": step 1 failed, so it has no result to use.`);
    }
    expect(resolveRefs({ a: '$01' }, [{ id: 'comp_1' }, 'x'], 2)).toMatchObject({
      ok: true,
      value: { a: '$01' },
    });
  });

  it('refuses a missing field', () => {
    const r = resolveRefs({ a: '$0.nope' }, results, 3);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('bad_argument');
  });
});

describe('resolveRefs and inherited names', () => {
  it('refuses fields every object inherits ("$0.constructor", "$0.__proto__") instead of handing them on', () => {
    for (const field of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = resolveRefs({ a: `$0.${field}` }, [{ id: 'comp_1' }], 1);
      expect(r.ok, field).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('bad_argument');
    }
  });
});

describe('resolveRefs on params nested past any command', () => {
  it('refuses params nested 100,000 levels deep with bad_argument, not a stack overflow', () => {
    // A batch step with a value nested 5,000 arrays deep failed the whole tool with tool_failed
    // ("Maximum call stack size exceeded" in the server log).
    let deep: unknown = '$0';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = resolveRefs({ name: deep }, ['x'], 1);
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_argument' } });
  });

  it('still fills references at the depths params really have', () => {
    let deep: unknown = '$0';
    for (let i = 0; i < 32; i++) deep = [deep];
    const r = resolveRefs({ name: deep }, ['x'], 1);
    expect(r).toMatchObject({ ok: true, refs: ['x'] });
  });
});
