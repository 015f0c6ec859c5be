/**
 * Finds every string in a command's params that looks like an absolute path, however deeply nested in
 * arrays and objects (object keys included). Declared path params are the main check; this scan is the
 * safety net for a path hidden where no declaration expects one.
 */
import { fileURLToPath } from 'node:url';

export interface FoundPath {
  /** Dotted location in the params, e.g. `overflow.1.dir`, `layers.0.<key>` for a key. */
  param: string;
  /** The path as found; a `file:` URL is converted to its path (null when it cannot be). */
  path: string | null;
  raw: string;
}

/**
 * Security: anything that starts with `/` counts, and `file:` URLs too. False positives (a text layer
 * whose text starts with "/") are refused when they point outside the roots; a false negative would let a
 * path through unchecked.
 */
export function looksLikePath(value: string): boolean {
  return value.startsWith('/') || /^file:/i.test(value);
}

function toPath(value: string): string | null {
  if (!/^file:/i.test(value)) return value;
  try {
    return fileURLToPath(value);
  } catch {
    return null;
  }
}

/** Every path-like string in `params`, with where it was. Iterative, so deep nesting cannot overflow. */
export function scanPaths(params: unknown): FoundPath[] {
  const out: FoundPath[] = [];
  const seen = new Set<object>();
  const stack: [unknown, string][] = [[params, '']];
  const at = (base: string, step: string) => (base ? `${base}.${step}` : step);
  while (stack.length) {
    const [value, where] = stack.pop()!;
    if (typeof value === 'string') {
      if (looksLikePath(value)) out.push({ param: where || '(params)', path: toPath(value), raw: value });
      continue;
    }
    if (!value || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push([v, at(where, String(i))]));
      continue;
    }
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (looksLikePath(key)) out.push({ param: at(where, `<key ${key}>`), path: toPath(key), raw: key });
      stack.push([v, at(where, key)]);
    }
  }
  return out;
}
