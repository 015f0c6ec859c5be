/** Turns zod failures into one clear bad_argument error that names the key and what is accepted. */
import { z } from 'zod';
import { EngineError } from './errors.js';

/** The keys a strict object schema accepts, or [] for non-object schemas. */
export function acceptedKeys(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

export function parseParams<T>(schema: z.ZodType<T>, raw: unknown, where: string): T {
  const proto = protoKeyAt(raw);
  if (proto !== null)
    throw new EngineError(
      'bad_argument',
      `Unknown parameter "__proto__"${proto ? ` in ${proto}` : ''} for ${where}: no parameter, input or field has that name.`,
      (w) => `Remove "__proto__"; ${w.schemas} shows every accepted parameter.`,
    );
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data;
  throw paramsError(result.error, schema, where, raw ?? {});
}

/** The value at `path` in `raw`, or undefined where a step of it is missing. */
function valueAt(raw: unknown, path: PropertyKey[]): unknown {
  let at = raw;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/**
 * One bad_argument for a failed parse. `raw` (the params as given) tells a missing parameter apart from a
 * wrong one: zod says only "Invalid input" for a missing parameter of several types (a colour: string or array).
 */
export function paramsError(error: z.ZodError, schema: z.ZodType, where: string, raw?: unknown): EngineError {
  const issue = error.issues[0];
  const accepted = acceptedKeys(schema);
  const acceptedText = accepted.length ? accepted.join(', ') : '(none)';
  if (issue?.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    const at = issue.path.length ? ` in ${issue.path.join('.')}` : '';
    return new EngineError(
      'bad_argument',
      `Unknown parameter ${keys}${at} for ${where}. Accepted parameters: ${at ? 'see the schema' : acceptedText}.`,
      (w) => `Remove ${keys}; ${w.schemas} shows every accepted parameter.`,
    );
  }
  const path = issue?.path.length ? issue.path.join('.') : '(params)';
  const missing =
    (issue?.code === 'invalid_type' && issue.message.includes('undefined')) ||
    (raw !== undefined && !!issue?.path.length && valueAt(raw, issue.path) === undefined);
  return new EngineError(
    'bad_argument',
    missing
      ? `Missing required parameter "${path}" for ${where}. Accepted parameters: ${acceptedText}.`
      : (w) => `Invalid ${w.paramOf(path, where)}: ${issue?.message ?? 'invalid value'}.`,
    // At the CLI, the flag that sets the param (--scale), not the param itself.
    (w) => `Fix ${w.param(path)} to match the command's schema (${w.schemas} shows it).`,
  );
}

/**
 * Where `raw` holds an own key "__proto__" (JSON.parse makes one from {"__proto__": ...}), or null. Zod's records
 * drop that key without a word, so renderQueue.add {props: {"__proto__": {...}}} and render --props with it
 * were taken as no props at all, where any other unknown input name is refused. Iterative: params may be deep.
 */
function protoKeyAt(raw: unknown): string | null {
  const stack: [unknown, string][] = [[raw, '']];
  const seen = new Set<object>();
  while (stack.length) {
    const [value, where] = stack.pop()!;
    if (!value || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (Object.hasOwn(value, '__proto__')) return where;
    for (const [key, v] of Object.entries(value)) stack.push([v, where ? `${where}.${key}` : key]);
  }
  return null;
}
