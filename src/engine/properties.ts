/**
 * Property paths (`transform.position`, `text.fontSize`, `effects.fx_3.radius`) and the values they accept.
 * One table serves property.set, property.setKeyframe, property.removeKeyframe and property.clearKeyframes.
 *
 * A path resolves, on one layer, to where the property lives in it. Reading never changes the layer (documents
 * are frozen): a property whose part of the layer does not exist yet (the stroke of a layer without one, the fill
 * of a shape made with `fill: null`, an effect parameter a project file left out) reads as its default, and the
 * first write creates it inside the edit's draft.
 */
import type { Draft } from 'immer';
import { normalizeColor } from './color.js';
import { EFFECT_TYPE_NAMES, effectParam, effectParamWords, effectType } from './effect-types.js';
import { EngineError } from './errors.js';
import {
  LAYER_KINDS,
  staticProp,
  TEXT_ALIGNS,
  type AnimatableProperty,
  type Layer,
  type LayerKind,
} from './model.js';
import { listWords } from './output-formats.js';
import { own } from './own.js';
import { rangeWords } from './value-words.js';

export type ValueType = 'number' | 'vec2' | 'color' | 'string' | 'align' | 'weight' | 'boolean';
type Key = string | number;

/** Where a property lives in a layer and what it accepts. */
export interface PropertyRef {
  /** Animatable properties are `{value, keyframes}`; the others are plain fields set by property.set only. */
  animatable: boolean;
  type: ValueType;
  min?: number;
  max?: number;
  /** Keys from the layer: `['transform', 'position']`, `['effects', 2, 'params', 'radius']`. */
  path: readonly Key[];
  /** The first `depth` keys of `path` lead to a part that may be absent (null); `initial` is what it starts as. */
  optional?: { depth: number; initial: () => object };
}

interface Spec extends PropertyRef {
  kinds: readonly LayerKind[];
  /** Unit and default in words, for the schemas agents read (the range is added from min/max). */
  help: string;
  /** Why this layer does not have it (a shape type without that property), or null when it does. */
  absent?: (layer: Layer) => EngineError | null;
}

const newStroke = () => ({ color: staticProp('#000000'), width: staticProp(0) });
const newFill = () => ({ color: staticProp('#ffffff') });
const newAudio = () => ({ level: staticProp(0), muted: false });

/** Audio levels in dB: -96 is silence for 16-bit sound, +24 the most After Effects' Audio Levels allow. */
export const AUDIO_LEVEL_RANGE = { min: -96, max: 24 } as const;

const COLOUR = 'colour, hex "#rrggbb" or "#rrggbbaa"';

function anim(
  type: 'number' | 'vec2' | 'color',
  kinds: readonly LayerKind[],
  path: readonly Key[],
  help: string,
  more: Partial<Spec> = {},
): Spec {
  return { animatable: true, type, kinds, path, help, ...more };
}

function plain(type: ValueType, key: string, help: string, more: Partial<Spec> = {}): Spec {
  return { animatable: false, type, kinds: ['text'], path: ['source', key], help, ...more };
}

function stroke(kind: 'text' | 'shape', key: 'color' | 'width'): Spec {
  const optional = { depth: 2, initial: newStroke };
  if (key === 'color')
    return anim('color', [kind], ['source', 'stroke', key], `stroke ${COLOUR} (default #000000)`, {
      optional,
    });
  return anim('number', [kind], ['source', 'stroke', key], 'stroke width in pixels (default 0: no stroke)', {
    min: 0,
    max: 500,
    optional,
  });
}

/** A property of the shape's geometry, which only some shape types have. */
function geometry(type: 'number' | 'vec2', key: string, help: string): Spec {
  const absent = (layer: Layer): EngineError | null => {
    const shape = (layer.source as Extract<Layer['source'], { kind: 'shape' }>).shape;
    const value = own(shape as unknown as Record<string, unknown>, key);
    if (key === 'innerRadius' && shape.type === 'polygon' && value === null)
      return new EngineError(
        'bad_argument',
        `"${layer.name}" is a polygon, not a star.`,
        'Add the shape with innerRadius to make a star.',
      );
    if (value) return null;
    return new EngineError(
      'bad_argument',
      `The ${shape.type} shape of "${layer.name}" has no ${key}.`,
      'Use a property that this shape type has.',
    );
  };
  return anim(type, ['shape'], ['source', 'shape', key], help, {
    min: type === 'number' ? 0 : undefined,
    absent,
  });
}

// A Map, not an object: a path such as "constructor" must not find what objects inherit.
const STATIC = new Map<string, Spec>([
  [
    'transform.anchorPoint',
    anim(
      'vec2',
      LAYER_KINDS,
      ['transform', 'anchorPoint'],
      '[x, y] in layer pixels, the point the layer turns and scales around (default: the layer centre)',
    ),
  ],
  [
    'transform.position',
    anim(
      'vec2',
      LAYER_KINDS,
      ['transform', 'position'],
      '[x, y] in composition pixels from the top left, where the anchor point goes (default: the composition centre)',
    ),
  ],
  [
    'transform.scale',
    anim(
      'vec2',
      LAYER_KINDS,
      ['transform', 'scale'],
      '[x, y] in percent, 100 = full size (default [100, 100])',
    ),
  ],
  [
    'transform.rotation',
    anim('number', LAYER_KINDS, ['transform', 'rotation'], 'degrees clockwise (default 0)'),
  ],
  [
    'transform.opacity',
    anim('number', LAYER_KINDS, ['transform', 'opacity'], 'percent (default 100)', {
      min: 0,
      max: 100,
    }),
  ],
  ['solid.color', anim('color', ['solid'], ['source', 'color'], COLOUR)],
  [
    'text.fontSize',
    anim('number', ['text'], ['source', 'fontSize'], 'pixels (default 72)', { min: 1, max: 2000 }),
  ],
  ['text.fill', anim('color', ['text'], ['source', 'fill'], `${COLOUR} (default #ffffff)`)],
  ['text.tracking', anim('number', ['text'], ['source', 'tracking'], '1/1000 em (default 0)')],
  ['text.strokeColor', stroke('text', 'color')],
  ['text.strokeWidth', stroke('text', 'width')],
  ['shape.size', geometry('vec2', 'size', '[width, height] in pixels (rectangle, ellipse)')],
  ['shape.roundness', geometry('number', 'roundness', 'corner radius in pixels (rectangle)')],
  ['shape.outerRadius', geometry('number', 'outerRadius', 'radius in pixels (polygon, star)')],
  ['shape.innerRadius', geometry('number', 'innerRadius', 'inner radius in pixels (star)')],
  [
    'shape.fillColor',
    anim('color', ['shape'], ['source', 'fill', 'color'], `fill ${COLOUR} (default #ffffff)`, {
      optional: { depth: 2, initial: newFill },
    }),
  ],
  ['shape.strokeColor', stroke('shape', 'color')],
  ['shape.strokeWidth', stroke('shape', 'width')],
  [
    'audio.level',
    anim('number', ['footage', 'precomp'], ['audio', 'level'], 'decibels, 0 = unchanged (default 0)', {
      ...AUDIO_LEVEL_RANGE,
      optional: { depth: 1, initial: newAudio },
    }),
  ],
  ['text.text', plain('string', 'text', 'the text, "\\n" for a new line')],
  ['text.fontFamily', plain('string', 'fontFamily', 'font family (default "Inter", bundled)')],
  [
    'text.fontWeight',
    plain('weight', 'fontWeight', '100 to 900; 400 (regular) and 700 (bold) are bundled (default 400)'),
  ],
  ['text.align', plain('align', 'align', `${TEXT_ALIGNS.join(', ')} (default center)`)],
  [
    'text.lineHeight',
    plain('number', 'lineHeight', 'multiple of the font size (default 1.2)', { min: 0.1, max: 10 }),
  ],
  ['text.kerning', plain('boolean', 'kerning', 'true or false (default true)')],
  ['text.ligatures', plain('boolean', 'ligatures', 'true or false (default true)')],
  ['text.contextualAlternates', plain('boolean', 'contextualAlternates', 'true or false (default true)')],
]);

/** Short names agents tend to use, mapped to full paths. */
const ALIASES = new Map<string, string>([
  ['position', 'transform.position'],
  ['anchorPoint', 'transform.anchorPoint'],
  ['scale', 'transform.scale'],
  ['rotation', 'transform.rotation'],
  ['opacity', 'transform.opacity'],
]);

export const PROPERTY_PATHS = [...STATIC.keys(), 'effects.<effectId>.<param>'];

/**
 * Layer settings that look like properties (doc_inspect shows them beside them) but are not animatable, each set
 * by a command of its own: the unknown-property error names the command instead of only listing paths.
 */
const SET_BY_COMMAND = new Map<string, string>([
  ...['audio.muted', 'audio.mute', 'muted', 'mute'].map(
    (p) => [p, 'layer.setAudioMuted {layer, muted}'] as const,
  ),
  ...['audio.stream', 'audioStream'].map((p) => [p, 'layer.setAudioStream {layer, stream}'] as const),
  ...['time', 'speed', 'loop', 'freezeAt', 'frameBlending', 'timeRemap', 'timeStretch'].flatMap((p) =>
    [p, `time.${p}`].map(
      (q) => [q, 'layer.setTimeMap {layer, speed, loop, freezeAt, frameBlending}'] as const,
    ),
  ),
  ...['inPoint', 'outPoint', 'startTime'].map(
    (p) => [p, 'layer.setTiming {layer, startTime, inPoint, outPoint}'] as const,
  ),
  ['blendMode', 'layer.setBlendMode {layer, mode}'],
  ['parent', 'layer.setParent {layer, parent}'],
  ['trackMatte', 'layer.setTrackMatte {layer, matte, mode}'],
  ['enabled', 'layer.setEnabled {layer, enabled}'],
  ['name', 'layer.rename {layer, name}'],
]);

/**
 * What each property path takes, in words (unit, range, default), generated from the table above and the
 * effect table: the `value` description of property.set and property.setKeyframe, so an agent reading the
 * schema over MCP knows that opacity is 0 to 100 and rotation is in degrees, and docs and schemas agree.
 */
export function propertyValueWords(): string {
  const paths = [...STATIC].map(([path, spec]) => {
    const range = rangeWords(spec);
    // The range goes after the unit, before "(default …)": "percent, 0 to 100 (default 100)".
    const [, unit, dflt = ''] = /^(.*?)( \(default .*\))?$/.exec(spec.help)!;
    return `${path}: ${unit}${range ? `, ${range}` : ''}${dflt}`;
  });
  return `By property. ${paths.join('; ')}; effects.<effectId>.<param>: as in effect.add: ${effectParamWords()}`;
}

/** Resolves a property path on a layer; throws bad_argument (or not_found for an effect) naming valid ones. */
export function resolveProperty(layer: Layer, path: string): PropertyRef {
  const full = ALIASES.get(path) ?? path;
  const spec = STATIC.get(full);
  if (spec) {
    if (!spec.kinds.includes(layer.source.kind)) {
      throw new EngineError(
        'bad_argument',
        `Property "${path}" belongs to ${listWords(spec.kinds, 'and')} layers; "${layer.name}" is a ${layer.source.kind} layer.`,
        (w) =>
          `Pick a property ${layer.source.kind} layers have (${w.schemas} shows property.set's paths by layer kind).`,
      );
    }
    const why = spec.absent?.(layer);
    if (why) throw why;
    return spec;
  }
  const m = /^effects\.([^.]+)\.([^.]+)$/.exec(full);
  if (m) return effectProperty(layer, m[1]!, m[2]!);
  const command = SET_BY_COMMAND.get(path);
  if (command)
    throw new EngineError(
      'bad_argument',
      `"${path}" is a layer setting, not an animatable property: property.set and keyframes do not change it.`,
      `Use ${command}.`,
    );
  throw new EngineError(
    'bad_argument',
    `Unknown property "${path}".`,
    `Use one of: ${PROPERTY_PATHS.join(', ')}.`,
  );
}

function effectProperty(layer: Layer, effectRef: string, param: string): PropertyRef {
  const effect =
    layer.effects.find((e) => e.id === effectRef) ?? layer.effects.find((e) => e.type === effectRef);
  if (!effect) {
    throw new EngineError(
      'not_found',
      `Layer "${layer.name}" has no effect "${effectRef}".`,
      `Effects on it: ${layer.effects.map((e) => e.id).join(', ') || 'none'}. Add one with effect.add.`,
    );
  }
  const type = effectType(effect.type);
  if (!type) {
    throw new EngineError(
      'bad_argument',
      `Effect ${effect.id} is of a type this version does not know ("${effect.type}"), so it has no parameters to set.`,
      `Remove it with effect.remove; known types: ${EFFECT_TYPE_NAMES.join(', ')}.`,
    );
  }
  const spec = effectParam(type, param);
  if (!spec) {
    throw new EngineError(
      'bad_argument',
      `Effect ${effect.type} has no parameter "${param}".`,
      `Its parameters: ${Object.keys(type.params).join(', ')}.`,
    );
  }
  return {
    animatable: true,
    type: spec.type,
    min: spec.min,
    max: spec.max,
    path: ['effects', layer.effects.indexOf(effect), 'params', param],
    // A project file may leave a parameter out; it then has its default until it is set.
    optional: { depth: 4, initial: () => staticProp(spec.default) },
  };
}

/**
 * The first value of `layer` that its property does not take (out of range, or of another type), in the words of
 * property.set's refusal and naming the keyframe; null when every value is one an edit could have set. A project
 * file is checked with it at open: a hand-edited or generated file could otherwise hold what no command accepts
 * (a blur radius of 1e9 rendered one 640x360 frame in 398 MB instead of 120 MB, a colour as a radius drew a
 * wrong picture without a word). Parameters of effect types this version does not know are the renderer's to
 * skip, with its warning.
 */
export function badPropertyValue(layer: Layer): string | null {
  const refs: [string, PropertyRef][] = [...STATIC].filter(([, spec]) =>
    spec.kinds.includes(layer.source.kind),
  );
  for (const effect of layer.effects) {
    const type = effectType(effect.type);
    if (!type) continue;
    for (const param of Object.keys(effect.params))
      if (effectParam(type, param))
        refs.push([`effects.${effect.id}.${param}`, effectProperty(layer, effect.id, param)]);
  }
  for (const [path, ref] of refs) {
    const found = lookup(layer, ref.path);
    if (found === undefined || found === null) continue;
    const values: [unknown, string][] = ref.animatable
      ? [
          [(found as AnimatableProperty).value, ''],
          ...(found as AnimatableProperty).keyframes.map((k, i): [unknown, string] => [
            k.value,
            ` (keyframe ${i} at ${k.time} s)`,
          ]),
        ]
      : [[found, '']];
    for (const [value, where] of values) {
      try {
        coerceValue(ref, value, path);
      } catch (err) {
        if (err instanceof EngineError) return `${err.message.replace(/\.$/, '')}${where}.`;
        throw err;
      }
    }
  }
  return null;
}

/** The property as it is on `layer` (its default when its part does not exist yet); changes nothing. */
export function readProperty(layer: Layer, ref: PropertyRef): unknown {
  const found = lookup(layer, ref.path);
  if (found !== undefined && found !== null) return found;
  if (!ref.optional) throw new Error(`property ${ref.path.join('.')} is missing from layer ${layer.id}`);
  return lookup(ref.optional.initial(), ref.path.slice(ref.optional.depth));
}

/** An animatable property as it is on `layer`; changes nothing. */
export function readAnimatable(layer: Layer, ref: PropertyRef): AnimatableProperty {
  return readProperty(layer, ref) as AnimatableProperty;
}

/** Whether the part of `layer` that holds the property exists (a stroke, a fill, an effect parameter). */
export function propertyExists(layer: Layer, ref: PropertyRef): boolean {
  return lookup(layer, ref.path) != null;
}

/** The animatable property in a draft layer, creating its part first when it is absent. Call inside update. */
export function draftAnimatable(layer: Draft<Layer>, ref: PropertyRef): AnimatableProperty {
  if (ref.optional) {
    const { depth, initial } = ref.optional;
    const parent = lookup(layer, ref.path.slice(0, depth - 1)) as Record<Key, unknown>;
    const key = ref.path[depth - 1]!;
    if (lookup(parent, [key]) == null) parent[key] = initial();
  }
  return lookup(layer, ref.path) as AnimatableProperty;
}

/** Sets a property that is not animatable in a draft layer. Call inside update. */
export function setPlain(layer: Draft<Layer>, ref: PropertyRef, value: unknown): void {
  const parent = lookup(layer, ref.path.slice(0, -1)) as Record<Key, unknown>;
  parent[ref.path[ref.path.length - 1]!] = value;
}

/** Follows `path` through own properties only; undefined where it leads nowhere. */
function lookup(root: unknown, path: readonly Key[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<Key, unknown>)[key];
  }
  return cur;
}

/** Checks and normalises a value for a property type; throws bad_argument naming the expected form. */
export function coerceValue(
  ref: Pick<PropertyRef, 'type' | 'min' | 'max'>,
  value: unknown,
  path: string,
): unknown {
  const fail = (expected: string) =>
    new EngineError(
      'bad_argument',
      `Invalid value for "${path}": expected ${expected}, got ${describe(value)}.`,
      `Pass ${expected}.`,
    );
  const range = (n: number) => {
    if (ref.min !== undefined && n < ref.min) throw fail(`a number >= ${ref.min}`);
    if (ref.max !== undefined && n > ref.max) throw fail(`a number <= ${ref.max}`);
    return n;
  };
  switch (ref.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a finite number');
      return range(value);
    case 'vec2':
      if (typeof value === 'number' && Number.isFinite(value)) return [value, value];
      if (
        Array.isArray(value) &&
        value.length === 2 &&
        value.every((v) => typeof v === 'number' && Number.isFinite(v))
      )
        return [value[0], value[1]];
      throw fail('[x, y] (two finite numbers)');
    case 'color': {
      const c = normalizeColor(value);
      if (!c)
        throw fail(
          'a colour such as "#ff8800", "#ff880080", a CSS colour name (teal, navy, gold, …) or [r, g, b, a] in 0..1',
        );
      return c;
    }
    case 'string':
      if (typeof value !== 'string') throw fail('a string');
      return value;
    case 'align':
      if (!TEXT_ALIGNS.includes(value as never)) throw fail(`one of ${TEXT_ALIGNS.join(', ')}`);
      return value;
    case 'weight':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 100 || value > 900)
        throw fail('a font weight 100..900');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw fail('true or false');
      return value;
  }
}

/** The value for an error message: JSON, cut short (a value may be megabytes, or not JSON at all). */
function describe(value: unknown): string {
  // 1e400 in a request's JSON reads as Infinity, which JSON would show as null: a value the caller never sent.
  if (typeof value === 'number' && !Number.isFinite(value))
    return `${value} (a number beyond what a double holds, such as 1e400, reads as ${value})`;
  let s: string | undefined;
  try {
    s = JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
    );
  } catch {
    s = undefined;
  }
  s ??= String(value);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
