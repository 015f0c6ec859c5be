/** Param schemas shared by several commands. */
import { z } from 'zod';
import { normalizeColor } from '../color.js';
import { EngineError } from '../errors.js';

export const CompRef = z
  .string()
  .min(1)
  .describe('Composition id, or its name when unique; defaults to the active composition');
/** The composition a command must be told (it never falls back on the active one, e.g. to delete it). */
export const RequiredCompRef = CompRef.describe('Composition id, or its name when unique');
export const LayerRef = z
  .string()
  .min(1)
  .describe('Layer id, or its name when unique within the composition');
export const ColorInput = z
  .union([z.string(), z.array(z.number().min(0).max(1)).min(3).max(4)])
  .describe(
    'Colour: "#rrggbb", "#rrggbbaa", a CSS colour name ("teal", "navy", …), or [r, g, b, a?] in 0..1',
  );
/** A stroke of a text or shape layer: given either of the two, the layer gets a stroke. */
export const StrokeColor = ColorInput.describe(
  'Stroke colour: "#rrggbb" hex, a CSS colour name or [r, g, b, a?] in 0..1 (default #000000 with a stroke)',
);
export const StrokeWidth = z
  .number()
  .min(0)
  .max(500)
  .describe('Stroke width in pixels, 0 to 500 (default: no stroke; 2 when only strokeColor is given)');
export const Vec2Input = z.tuple([z.number(), z.number()]);
export const AbsPath = z.string().min(1).describe('Absolute file path');

/** Normalises a colour param or throws bad_argument naming the param. */
export function color(value: unknown, param: string): string {
  const c = normalizeColor(value);
  if (!c)
    throw new EngineError(
      'bad_argument',
      `Invalid colour for "${param}": ${JSON.stringify(value)}.`,
      'Pass "#rrggbb", "#rrggbbaa", [r, g, b, a] in 0..1, or a CSS colour name such as red, teal, navy, orange, gold, skyblue.',
    );
  return c;
}
