/**
 * The effects the engine knows, with their parameters. The renderer implements each `type`; the engine uses
 * this table to create effects with defaults and to validate `effects.<id>.<param>` values.
 */
import { own, table } from './own.js';
import { rangeWords } from './value-words.js';

export type ParamType = 'number' | 'color';

export interface EffectParamSpec {
  type: ParamType;
  default: number | string;
  min?: number;
  max?: number;
  description: string;
}

export interface EffectTypeSpec {
  title: string;
  params: Readonly<Record<string, EffectParamSpec>>;
}

const pct = (d: number, description: string): EffectParamSpec => ({
  type: 'number',
  default: d,
  min: 0,
  max: 100,
  description,
});

const TYPES: Record<string, EffectTypeSpec> = {
  gaussianBlur: {
    title: 'Gaussian Blur',
    params: {
      radius: { type: 'number', default: 10, min: 0, max: 500, description: 'Blur radius in pixels' },
    },
  },
  dropShadow: {
    title: 'Drop Shadow',
    params: {
      color: { type: 'color', default: '#000000', description: 'Shadow colour' },
      opacity: pct(50, 'Shadow opacity in percent'),
      angle: { type: 'number', default: 135, description: 'Direction in degrees (0 = up, clockwise)' },
      distance: { type: 'number', default: 10, min: 0, max: 2000, description: 'Offset in pixels' },
      softness: { type: 'number', default: 10, min: 0, max: 500, description: 'Blur radius in pixels' },
    },
  },
  fill: {
    title: 'Fill',
    params: {
      color: { type: 'color', default: '#ff0000', description: 'Fill colour' },
      opacity: pct(100, 'Opacity in percent'),
    },
  },
  tint: {
    title: 'Tint',
    params: {
      mapBlackTo: { type: 'color', default: '#000000', description: 'Colour that black maps to' },
      mapWhiteTo: { type: 'color', default: '#ffffff', description: 'Colour that white maps to' },
      amount: pct(100, 'Amount to tint in percent'),
    },
  },
  brightnessContrast: {
    title: 'Brightness & Contrast',
    params: {
      brightness: { type: 'number', default: 0, min: -150, max: 150, description: 'Brightness shift' },
      contrast: {
        type: 'number',
        default: 0,
        min: -100,
        max: 100,
        description: 'Contrast change in percent',
      },
    },
  },
  hueSaturation: {
    title: 'Hue/Saturation',
    params: {
      hue: { type: 'number', default: 0, min: -180, max: 180, description: 'Hue rotation in degrees' },
      saturation: { type: 'number', default: 0, min: -100, max: 100, description: 'Saturation change' },
      lightness: { type: 'number', default: 0, min: -100, max: 100, description: 'Lightness change' },
    },
  },
  invert: { title: 'Invert', params: { amount: pct(100, 'Blend with the original in percent') } },
  glow: {
    title: 'Glow',
    params: {
      threshold: pct(60, 'Brightness above which pixels glow, in percent'),
      radius: { type: 'number', default: 20, min: 0, max: 500, description: 'Glow radius in pixels' },
      intensity: { type: 'number', default: 1, min: 0, max: 10, description: 'Glow strength' },
    },
  },
};

/**
 * Effect types by name. The tables have no prototype, so a name such as "constructor" from a command or a
 * project file finds nothing even where it is read as `EFFECT_TYPES[name]` (the renderer reads it so).
 */
export const EFFECT_TYPES: Readonly<Record<string, EffectTypeSpec>> = table(
  Object.fromEntries(
    Object.entries(TYPES).map(([name, spec]) => [
      name,
      Object.freeze({ ...spec, params: table(spec.params) }),
    ]),
  ),
);

export const EFFECT_TYPE_NAMES = Object.keys(EFFECT_TYPES);

/** The effect type called `name`, or undefined. */
export function effectType(name: string): EffectTypeSpec | undefined {
  return own(EFFECT_TYPES, name);
}

/** One parameter in words: what it is and its unit, its range and its default ("Shadow opacity in percent, 0 to 100, default 50"). */
export function paramWords(spec: EffectParamSpec): string {
  const range = rangeWords(spec) && `, ${rangeWords(spec)}`;
  const kind = spec.type === 'color' ? ', hex "#rrggbb"' : '';
  return `${spec.description}${kind}${range}, default ${spec.default}`;
}

/** Every effect type's parameters in words: the schemas of effect.add and property.set say them. */
export function effectParamWords(): string {
  return Object.entries(EFFECT_TYPES)
    .map(
      ([type, spec]) =>
        `${type} {${Object.entries(spec.params)
          .map(([name, p]) => `${name}: ${paramWords(p)}`)
          .join('; ')}}`,
    )
    .join('; ');
}

/** The parameter `name` of an effect type, or undefined. */
export function effectParam(spec: EffectTypeSpec, name: string): EffectParamSpec | undefined {
  return own(spec.params, name);
}
