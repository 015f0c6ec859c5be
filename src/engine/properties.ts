/**
 * Property paths (`transform.position`, `text.fontSize`, `effects.fx_3.radius`) and the values they accept.
 * One table serves property.set, property.setKeyframe, doc_inspect and the renderer.
 */
import { normalizeColor } from './color.js';
import { EFFECT_TYPES } from './effect-types.js';
import { EngineError } from './errors.js';
import { staticProp, TEXT_ALIGNS, type AnimatableProperty, type Layer } from './model.js';

export type ValueType = 'number' | 'vec2' | 'color' | 'string' | 'align' | 'weight';

/** Where a property lives: animatable ones resolve to their `{value, keyframes}` object. */
export type PropertyRef =
  | {
      animatable: true;
      type: 'number' | 'vec2' | 'color';
      get(layer: Layer): AnimatableProperty;
      min?: number;
      max?: number;
    }
  | {
      animatable: false;
      type: ValueType;
      get(layer: Layer): unknown;
      set(layer: Layer, value: unknown): void;
      min?: number;
      max?: number;
    };

type Src<K extends Layer['source']['kind']> = Extract<Layer['source'], { kind: K }>;

function source<K extends Layer['source']['kind']>(layer: Layer, kind: K, path: string): Src<K> {
  if (layer.source.kind !== kind) {
    throw new EngineError(
      'bad_argument',
      `Property "${path}" belongs to ${kind} layers; "${layer.name}" is a ${layer.source.kind} layer.`,
      'Pick a property of that layer kind (doc_inspect lists them).',
    );
  }
  return layer.source as Src<K>;
}

const anim = (
  type: 'number' | 'vec2' | 'color',
  get: (l: Layer) => AnimatableProperty,
  min?: number,
  max?: number,
): PropertyRef => ({ animatable: true, type, get, min, max });

function shapeProp(
  layer: Layer,
  path: string,
  key: 'size' | 'roundness' | 'outerRadius' | 'innerRadius',
): AnimatableProperty {
  const geom = source(layer, 'shape', path).shape as unknown as Record<
    string,
    AnimatableProperty | null | undefined
  >;
  const prop = geom[key];
  if (key === 'innerRadius' && geom.type !== undefined && prop === null) {
    throw new EngineError(
      'bad_argument',
      `"${layer.name}" is a polygon, not a star.`,
      'Add the shape with innerRadius to make a star.',
    );
  }
  if (!prop)
    throw new EngineError(
      'bad_argument',
      `The ${(geom as { type?: string }).type} shape of "${layer.name}" has no ${key}.`,
      'Use a property that this shape type has.',
    );
  return prop;
}

const STATIC: Record<string, PropertyRef> = {
  'transform.anchorPoint': anim('vec2', (l) => l.transform.anchorPoint),
  'transform.position': anim('vec2', (l) => l.transform.position),
  'transform.scale': anim('vec2', (l) => l.transform.scale),
  'transform.rotation': anim('number', (l) => l.transform.rotation),
  'transform.opacity': anim('number', (l) => l.transform.opacity, 0, 100),
  'solid.color': anim('color', (l) => source(l, 'solid', 'solid.color').color),
  'text.fontSize': anim('number', (l) => source(l, 'text', 'text.fontSize').fontSize, 1, 2000),
  'text.fill': anim('color', (l) => source(l, 'text', 'text.fill').fill),
  'text.tracking': anim('number', (l) => source(l, 'text', 'text.tracking').tracking),
  'text.strokeColor': anim('color', (l) => ensureStroke(l, 'text.strokeColor').color),
  'text.strokeWidth': anim('number', (l) => ensureStroke(l, 'text.strokeWidth').width, 0, 500),
  'shape.size': anim('vec2', (l) => shapeProp(l, 'shape.size', 'size')),
  'shape.roundness': anim('number', (l) => shapeProp(l, 'shape.roundness', 'roundness'), 0),
  'shape.outerRadius': anim('number', (l) => shapeProp(l, 'shape.outerRadius', 'outerRadius'), 0),
  'shape.innerRadius': anim('number', (l) => shapeProp(l, 'shape.innerRadius', 'innerRadius'), 0),
  'shape.fillColor': anim('color', (l) => {
    const s = source(l, 'shape', 'shape.fillColor');
    if (!s.fill) s.fill = { color: staticProp('#ffffff') };
    return s.fill.color;
  }),
  'shape.strokeColor': anim('color', (l) => ensureStroke(l, 'shape.strokeColor').color),
  'shape.strokeWidth': anim('number', (l) => ensureStroke(l, 'shape.strokeWidth').width, 0, 500),
  'text.text': {
    animatable: false,
    type: 'string',
    get: (l) => source(l, 'text', 'text.text').text,
    set: (l, v) => (source(l, 'text', 'text.text').text = v as string),
  },
  'text.fontFamily': {
    animatable: false,
    type: 'string',
    get: (l) => source(l, 'text', 'text.fontFamily').fontFamily,
    set: (l, v) => (source(l, 'text', 'text.fontFamily').fontFamily = v as string),
  },
  'text.fontWeight': {
    animatable: false,
    type: 'weight',
    get: (l) => source(l, 'text', 'text.fontWeight').fontWeight,
    set: (l, v) => (source(l, 'text', 'text.fontWeight').fontWeight = v as number),
  },
  'text.align': {
    animatable: false,
    type: 'align',
    get: (l) => source(l, 'text', 'text.align').align,
    set: (l, v) => (source(l, 'text', 'text.align').align = v as (typeof TEXT_ALIGNS)[number]),
  },
  'text.lineHeight': {
    animatable: false,
    type: 'number',
    min: 0.1,
    max: 10,
    get: (l) => source(l, 'text', 'text.lineHeight').lineHeight,
    set: (l, v) => (source(l, 'text', 'text.lineHeight').lineHeight = v as number),
  },
};

/** Short names agents tend to use, mapped to full paths. */
const ALIASES: Record<string, string> = {
  position: 'transform.position',
  anchorPoint: 'transform.anchorPoint',
  scale: 'transform.scale',
  rotation: 'transform.rotation',
  opacity: 'transform.opacity',
};

export const PROPERTY_PATHS = [...Object.keys(STATIC), 'effects.<effectId>.<param>'];

function ensureStroke(layer: Layer, path: string) {
  const s = layer.source;
  if (s.kind !== 'text' && s.kind !== 'shape') {
    throw new EngineError(
      'bad_argument',
      `Property "${path}" belongs to text and shape layers.`,
      'Pick a property of that layer kind.',
    );
  }
  if (!s.stroke) s.stroke = { color: staticProp('#000000'), width: staticProp(0) };
  return s.stroke;
}

/** Resolves a property path on a layer; throws bad_argument listing valid paths when unknown. */
export function resolveProperty(layer: Layer, path: string): PropertyRef {
  const full = ALIASES[path] ?? path;
  const known = STATIC[full];
  if (known) return known;
  const m = /^effects\.([^.]+)\.([^.]+)$/.exec(full);
  if (m) {
    const [, effectRef, param] = m as unknown as [string, string, string];
    const effect =
      layer.effects.find((e) => e.id === effectRef) ?? layer.effects.find((e) => e.type === effectRef);
    if (!effect) {
      throw new EngineError(
        'not_found',
        `Layer "${layer.name}" has no effect "${effectRef}".`,
        `Effects on it: ${layer.effects.map((e) => e.id).join(', ') || 'none'}. Add one with effect.add.`,
      );
    }
    const spec = EFFECT_TYPES[effect.type]?.params[param];
    if (!spec) {
      const names = Object.keys(EFFECT_TYPES[effect.type]?.params ?? {});
      throw new EngineError(
        'bad_argument',
        `Effect ${effect.type} has no parameter "${param}".`,
        `Its parameters: ${names.join(', ')}.`,
      );
    }
    const id = effect.id;
    return anim(spec.type, (l) => l.effects.find((e) => e.id === id)!.params[param]!, spec.min, spec.max);
  }
  throw new EngineError(
    'bad_argument',
    `Unknown property "${path}".`,
    `Use one of: ${PROPERTY_PATHS.join(', ')}.`,
  );
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
      `Invalid value for "${path}": expected ${expected}, got ${JSON.stringify(value)}.`,
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
  }
}
