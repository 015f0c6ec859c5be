/**
 * Seeded generators of command params for the fuzz test: params shaped by a command's JSON Schema and filled with
 * names that exist in the fixture (so commands get past lookups), then some field made hostile; or hostile
 * values of any shape. A failing case is replayed from its seed.
 */

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;
const own = <T>(table: Readonly<Record<string, T>>, key: string) =>
  Object.hasOwn(table, key) ? table[key] : undefined;
export const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const chance = (r: Rand, p: number) => r() < p;

export const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

const NUMBERS = [
  0,
  -0,
  -1,
  0.5,
  1,
  2,
  100,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  5e-324,
  NaN,
  Infinity,
  -Infinity,
];
const STRINGS = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-1e308',
  '1e308',
  '0x10',
  '\u0000',
  '\ud800',
  '🎬',
  'تحريك',
  '#zzz',
];

/** A long string; rarely a megabyte (they are slow to push through every command). */
function longString(r: Rand): string {
  return 'é'.repeat(pick(r, [1_001, 10_000, 100_001, chance(r, 0.1) ? 1_000_001 : 2_000]));
}

/** Nesting deeper than any schema expects (and than a naive recursive walk survives at the far end). */
function deep(r: Rand): unknown {
  let v: unknown = pick(r, [1, 'x', null]);
  for (let i = pick(r, [20, 500, 5_000]); i > 0; i--) v = chance(r, 0.5) ? [v] : { a: v };
  return v;
}

/** Any hostile value: wrong types, extreme numbers, inherited names, long strings, deep or odd objects. */
export function hostile(r: Rand, depth = 0): unknown {
  switch (Math.floor(r() * 10)) {
    case 0:
      return pick(r, NUMBERS);
    case 1:
      return pick(r, [...STRINGS, ...INHERITED]);
    case 2:
      return longString(r);
    case 3:
      return pick(r, [null, undefined, true, false]);
    case 4:
      return depth > 2 ? [] : Array.from({ length: pick(r, [0, 1, 2, 3, 50]) }, () => hostile(r, depth + 1));
    case 5:
      return depth > 2 ? {} : JSON.parse(`{"__proto__": {"polluted": 1}, "constructor": 1, "x": 1}`);
    case 6:
      return deep(r);
    case 7:
      return Object.fromEntries(Array.from({ length: pick(r, [1, 5, 1000]) }, (_, i) => [`k${i}`, i]));
    case 8:
      return pick(r, ['/etc/passwd', 'relative/path.ecproj', '/nope/\u0000.png', `/${'d/'.repeat(3_000)}x`]);
    default:
      return pick(r, [
        [1, 2],
        [1, 2, 3, 4, 5],
        ['a', 'b'],
        [NaN, 1],
        [0, 0, 0],
      ]);
  }
}

/** What a fixture offers as plausible values, by the param names commands use. */
export interface Names {
  comps: string[];
  layers: string[];
  effects: string[];
  footage: string[];
  queue: string[];
  properties: string[];
  colours: unknown[];
  paths: { read: string[]; write: string[] };
  /**
   * The layer of the active composition that has each property, and values it takes: the generator often pairs
   * them, so commands get past the lookups and the value checks.
   */
  owners: Readonly<Record<string, { layer: string; values: unknown[] }>>;
}

/** Values a property may take: numbers, pairs, colours, text. */
const VALUES: unknown[] = [
  3,
  0,
  250,
  [10, 20],
  'red',
  '#00ff0080',
  'Hello',
  700,
  'center',
  [0.5, 0.5, 0.5, 1],
];

function plausibleString(r: Rand, key: string, names: Names): string {
  const byKey: Record<string, string[]> = {
    comp: names.comps,
    source: names.comps,
    layer: names.layers,
    parent: names.layers,
    matte: names.layers,
    effect: names.effects,
    footage: names.footage,
    id: names.queue,
    property: names.properties,
    fontFamily: ['Inter', 'Nope'],
    path: names.paths.read.concat(names.paths.write),
    output: names.paths.write,
    dir: names.paths.write,
  };
  const list = Object.hasOwn(byKey, key) ? byKey[key]! : [];
  if (list.length && chance(r, 0.85)) return pick(r, list);
  return pick(r, ['Main', 'x', 'Title', 'New name', 'fx_1', 'layer_1', ...INHERITED]);
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
}

/** A value shaped by `schema`; strings and colours come from the fixture's names. */
export function plausible(r: Rand, schema: JsonSchema, names: Names, key = '', depth = 0): unknown {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return plausible(r, pick(r, options), names, key, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return pick(r, schema.enum);
  if (/colou?r|fill|backgroundColor/i.test(key) && chance(r, 0.8)) return pick(r, names.colours);
  const type = Array.isArray(schema.type) ? pick(r, schema.type) : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries(schema.properties ?? {}))
        if (schema.required?.includes(k) || chance(r, 0.35)) out[k] = plausible(r, s, names, k, depth + 1);
      const owner = typeof out.property === 'string' ? own(names.owners, out.property) : undefined;
      if (owner && chance(r, 0.7)) {
        delete out.comp;
        out.layer = owner.layer;
        if ('value' in out) out.value = pick(r, owner.values);
      }
      return out;
    }
    case 'array':
      if (schema.prefixItems) return schema.prefixItems.map((s) => plausible(r, s, names, key, depth + 1));
      return Array.from({ length: Math.max(schema.minItems ?? 0, pick(r, [0, 1, 2, 3])) }, () =>
        plausible(r, schema.items ?? {}, names, key, depth + 1),
      );
    case 'string':
      return plausibleString(r, key, names);
    case 'number':
    case 'integer': {
      const lo = schema.minimum ?? 0;
      const hi = Math.min(schema.maximum ?? 10, lo + 1000);
      const n = lo + r() * (hi - lo);
      return type === 'integer' ? Math.round(n) : pick(r, [n, Math.round(n), lo, hi]);
    }
    case 'boolean':
      return chance(r, 0.5);
    case 'null':
      return null;
    default:
      if (key === 'value' && chance(r, 0.7)) return pick(r, VALUES);
      return depth > 3 ? 1 : hostile(r, 3);
  }
}

/** Makes one field of `params` hostile, adds an unknown one, or replaces the whole params. */
export function mutate(r: Rand, params: unknown): unknown {
  if (params === null || typeof params !== 'object' || Array.isArray(params) || chance(r, 0.15))
    return hostile(r);
  const out = { ...(params as Record<string, unknown>) };
  const keys = Object.keys(out);
  if (keys.length && chance(r, 0.8)) {
    const k = pick(r, keys);
    const v = out[k];
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && chance(r, 0.5) ? mutate(r, v) : hostile(r);
  } else out[pick(r, ['extra', ...INHERITED])] = hostile(r);
  return out;
}

/** JSON for a failure report, cut short (values may be megabytes or deeply nested). */
export function shown(value: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = `<${typeof value} that JSON.stringify refuses>`;
  }
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}
