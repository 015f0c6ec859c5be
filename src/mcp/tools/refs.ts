/**
 * Result references in `batch` step params: "$N" is the whole result of step N (0-based) and "$N.a.b"
 * a field of it. Only whole-string values are references; anything else passes through unchanged.
 */
import type { ErrorInfo } from '../../engine/index.js';

// "$01" is text, not a reference: one way to write each step's number.
const REF = /^\$(0|[1-9]\d*)((?:\.[A-Za-z0-9_-]+)*)$/;

/** What a step that failed leaves in the results: a reference to it is refused, not filled with nothing. */
export const FAILED_STEP: unique symbol = Symbol('failed step');

/**
 * Deepest nesting a step's params may have. No command's params nest past a handful of levels (keyframes of a
 * point: 4); the walk below is recursive, and params nested 5,000 levels deep overflowed the stack ("batch failed
 * unexpectedly", tool_failed) instead of being refused as what they are.
 */
const MAX_DEPTH = 64;

export type Resolved = { ok: true; value: unknown; refs: string[] } | { ok: false; error: ErrorInfo };

/** Replaces references in `value` using the results of earlier steps. `refs` lists every value substituted. */
export function resolveRefs(value: unknown, results: readonly unknown[], step: number): Resolved {
  const refs: string[] = [];
  let error: ErrorInfo | null = null;
  const walk = (v: unknown, depth = 0): unknown => {
    if (error) return v;
    if (depth > MAX_DEPTH) {
      error = {
        code: 'bad_argument',
        message: `The params of step ${step} are nested more than ${MAX_DEPTH} levels deep.`,
        remediation:
          "Pass the params the step's command takes (command_list with schemas shows them); none nests this deep.",
      };
      return v;
    }
    if (typeof v === 'string') {
      const m = REF.exec(v);
      if (!m) return v;
      const index = Number(m[1]);
      if (index >= step) {
        error = badRef(v, `step ${index} has not run before step ${step}`);
        return v;
      }
      let out: unknown = results[index];
      if (out === FAILED_STEP) {
        error = badRef(v, `step ${index} failed, so it has no result to use`);
        return v;
      }
      for (const key of (m[2] ?? '').split('.').filter(Boolean)) {
        // Own fields only: "$0.constructor" or "$0.__proto__" must not reach what every object inherits.
        if (out === null || typeof out !== 'object' || !Object.hasOwn(out, key)) {
          error = badRef(v, `the result of step ${index} has no field "${key}"`);
          return v;
        }
        out = (out as Record<string, unknown>)[key];
      }
      if (typeof out === 'string') refs.push(out);
      return out;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
    return v;
  };
  const resolved = walk(value);
  return error ? { ok: false, error } : { ok: true, value: resolved, refs };
}

function badRef(ref: string, why: string): ErrorInfo {
  return {
    code: 'bad_argument',
    message: `Reference "${ref}": ${why}.`,
    remediation: 'Use "$N" or "$N.field" where N is the 0-based index of an earlier step.',
  };
}
