/**
 * The part of a zod schema that describes one place in a value, so an edit's changes can be validated where they
 * are instead of validating the whole document (or the whole layer, with its thousands of keyframes) after every
 * edit. It walks object shapes, array, record and tuple elements and the options of unions, guided by the value
 * (a discriminated union by its discriminator, another union by which option accepts what is at the place).
 */
import type { z } from 'zod';

type Key = string | number;

/** The zod 4 definition fields this walk reads. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  items?: z.ZodType[];
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** `schema` without optional, nullable and default wrappers. */
export function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let def = defOf(s); def.innerType; def = defOf(s)) s = def.innerType;
  return s;
}

/** Follows `path` through own properties; undefined where it leads nowhere. */
export function valueAt(root: unknown, path: readonly Key[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<Key, unknown>)[key];
  }
  return cur;
}

/** The schema of the place `path` in `value` (which `root` describes), or null when the schema has no such place. */
export function schemaAt(root: z.ZodType, value: unknown, path: readonly Key[]): z.ZodType | null {
  // Wrappers (nullable, optional, default) are kept on the schema returned: null may be what is at the place.
  let schema = root;
  let node = value;
  for (let i = 0; i < path.length; i++) {
    const def = defOf(unwrapped(schema));
    if (def.type === 'union') return unionAt(def, node, path.slice(i), valueAt(node, path.slice(i)));
    const key = path[i]!;
    let next: z.ZodType | undefined;
    if (def.type === 'object' && def.shape && Object.hasOwn(def.shape, key)) next = def.shape[key];
    else if (def.type === 'array') next = def.element;
    else if (def.type === 'tuple') next = def.items?.[key as number];
    else if (def.type === 'record') next = def.valueType;
    if (!next) return null;
    schema = next;
    node = valueAt(node, [key]);
  }
  return schema;
}

function unionAt(union: Def, node: unknown, rest: readonly Key[], target: unknown): z.ZodType | null {
  const options = union.options ?? [];
  if (union.discriminator) {
    const tag = valueAt(node, [union.discriminator]);
    const option = options.find((o) => propValues(o, union.discriminator!)?.has(tag as never));
    return option ? schemaAt(option, node, rest) : null;
  }
  // An effect parameter is a number, [x, y] or colour property: the option that accepts what is at the place.
  const candidates = options.map((o) => schemaAt(o, node, rest)).filter((s): s is z.ZodType => s !== null);
  return candidates.find((s) => s.safeParse(target).success) ?? candidates[0] ?? null;
}

function propValues(option: z.ZodType, key: string): Set<unknown> | undefined {
  return (option as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod.propValues?.[
    key
  ];
}
