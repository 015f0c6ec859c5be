/**
 * Template inputs: what each input type binds to, and how a value (a render's prop) is checked against an
 * input. Expected failures are values naming the input and what it accepts; the commands (input.*,
 * renderQueue.add) and the CLI's data rows word them for their surface.
 */
import { isAbsolute } from 'node:path';
import { normalizeColor } from './color.js';
import { EngineError } from './errors.js';
import type { Composition, InputType, InputValue, Layer, Props, TemplateInput } from './model.js';
import {
  coerceValue,
  readProperty,
  resolveProperty,
  type PropertyRef,
  type ValueType,
} from './properties.js';

/** Binding targets that are not property paths. */
export const ENABLED_TARGET = 'enabled';
export const SOURCE_TARGET = 'source';

/** Where a binding writes: a property, the layer's enabled switch, or a footage layer's file. */
export type BindingTarget =
  { kind: 'property'; ref: PropertyRef; path: string } | { kind: 'enabled' } | { kind: 'footage' };

/** The property types each input type may drive. */
const PROPERTY_TYPES: Record<InputType, readonly ValueType[]> = {
  text: ['string'],
  color: ['color'],
  number: ['number', 'weight'],
  boolean: ['boolean'],
  choice: ['string', 'align'],
  footage: [],
};

/** What an input type binds to, in words, for errors and schemas. */
export const BINDS_TO: Record<InputType, string> = {
  text: 'text properties (text.text, text.fontFamily)',
  color: 'colour properties (solid.color, text.fill, shape.fillColor, ...)',
  number: 'number properties (transform.opacity, text.fontSize, effect parameters, ...)',
  boolean: `"${ENABLED_TARGET}" (the layer's switch) or true/false properties (text.kerning, ...)`,
  choice: 'text properties and text.align',
  footage: `"${SOURCE_TARGET}" of a footage layer (its file)`,
};

/**
 * Resolves a binding of a `type` input to `property` of `layer`; throws bad_argument when the input type cannot
 * drive it (a colour input on text.text), or when the property is animated (a value would replace its keys).
 */
export function bindingTarget(layer: Layer, property: string, type: InputType): BindingTarget {
  const refuse = (why: string) =>
    new EngineError(
      'bad_argument',
      `A ${type} input cannot be bound to "${property}" of "${layer.name}": ${why}.`,
      `A ${type} input binds to ${BINDS_TO[type]}.`,
    );
  if (property === ENABLED_TARGET) {
    if (type !== 'boolean') throw refuse('the layer switch takes true or false');
    return { kind: 'enabled' };
  }
  if (property === SOURCE_TARGET) {
    if (type !== 'footage') throw refuse('a layer source takes a footage file');
    if (layer.source.kind !== 'footage')
      throw refuse(`it is a ${layer.source.kind} layer, not a footage layer`);
    return { kind: 'footage' };
  }
  const ref = resolveProperty(layer, property);
  if (!PROPERTY_TYPES[type].includes(ref.type)) throw refuse(`"${property}" is a ${ref.type} property`);
  if (ref.animatable && (readProperty(layer, ref) as { keyframes: unknown[] }).keyframes.length)
    throw refuse('it is animated (an input sets one static value)');
  return { kind: 'property', ref, path: property };
}

/** An input's value checked: normalised, or what the input accepts. */
export type ValueCheck = { ok: true; value: InputValue } | { ok: false; accepts: string };

/** What an input accepts, in words. */
export function acceptsWords(input: Pick<TemplateInput, 'type' | 'choices'>): string {
  switch (input.type) {
    case 'text':
      return 'a string';
    case 'color':
      return 'a colour: "#rrggbb", "#rrggbbaa" or a CSS colour name';
    case 'number':
      return 'a finite number';
    case 'boolean':
      return 'true or false';
    case 'footage':
      return 'an absolute path to an image, video, image sequence or sound file (on the command line, a relative one resolves first)';
    case 'choice':
      return `one of: ${(input.choices ?? []).join(', ')}`;
  }
}

/** Checks `value` against the input's type (not yet against its bound properties' ranges). */
export function checkInputValue(input: Pick<TemplateInput, 'type' | 'choices'>, value: unknown): ValueCheck {
  const no: ValueCheck = { ok: false, accepts: acceptsWords(input) };
  switch (input.type) {
    case 'text':
      return typeof value === 'string' ? { ok: true, value } : no;
    case 'color': {
      const c = normalizeColor(value);
      return c ? { ok: true, value: c } : no;
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { ok: true, value } : no;
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : no;
    case 'footage':
      return typeof value === 'string' && isAbsolute(value) ? { ok: true, value } : no;
    case 'choice':
      return typeof value === 'string' && (input.choices ?? []).includes(value) ? { ok: true, value } : no;
  }
}

/** Why a set of props does not fit a composition's inputs. */
export interface PropsProblem {
  ok: false;
  /** The input (or unknown name) at fault. */
  input: string;
  message: string;
  accepts: string;
}

export type PropsCheck = { ok: true; props: Props } | PropsProblem;

/** The composition's inputs (none when it has no template). */
export function inputsOf(comp: Composition): readonly TemplateInput[] {
  return comp.inputs ?? [];
}

/** A composition's inputs with each binding's layer name, as input.list and the inspect view show them. */
export function describeInputs(comp: Composition) {
  return inputsOf(comp).map((i) => ({
    ...i,
    bindings: i.bindings.map((b) => ({
      ...b,
      layerName: comp.layers.find((l) => l.id === b.layer)?.name ?? null,
    })),
  }));
}

/**
 * Checks props against `comp`'s inputs: every name is an input, every value fits its type and every property it
 * is bound to (a font size of 0 is refused here, before anything renders). Returns the normalised values.
 */
export function checkProps(comp: Composition, props: Readonly<Record<string, unknown>>): PropsCheck {
  const inputs = inputsOf(comp);
  const out: Props = {};
  for (const [name, raw] of Object.entries(props)) {
    const input = inputs.find((i) => i.name === name);
    if (!input) {
      const names = inputs.map((i) => i.name).join(', ') || 'none';
      return {
        ok: false,
        input: name,
        message: `"${comp.name}" has no input "${name}".`,
        accepts: `its inputs: ${names}`,
      };
    }
    const checked = checkInputValue(input, raw);
    const shown = JSON.stringify(raw)?.slice(0, 80) ?? String(raw);
    if (!checked.ok)
      return {
        ok: false,
        input: name,
        message: `Input "${name}" (${input.type}) accepts ${checked.accepts}; got ${shown}.`,
        accepts: checked.accepts,
      };
    const fit = fitsBindings(comp, input, checked.value);
    if (fit)
      return { ok: false, input: name, message: `Input "${name}": ${fit.message}`, accepts: fit.accepts };
    out[name] = checked.value;
  }
  return { ok: true, props: out };
}

/**
 * Why `value` does not fit one of the input's bound properties (its range), and what that property takes (the
 * "accepts" a remedy is made of: "Pass props with a number from 1 to 2000, ..."), or null when it fits them all.
 */
function fitsBindings(
  comp: Composition,
  input: TemplateInput,
  value: InputValue,
): { message: string; accepts: string } | null {
  for (const b of input.bindings) {
    const layer = comp.layers.find((l) => l.id === b.layer);
    if (!layer) continue;
    const path = `${layer.name}/${b.property}`;
    let range: readonly [number | undefined, number | undefined] = [undefined, undefined];
    try {
      const target = bindingTarget(layer, b.property, input.type);
      if (target.kind === 'property') {
        range = [target.ref.min, target.ref.max];
        coerceValue(target.ref, value, path);
      }
    } catch (err) {
      if (err instanceof EngineError) return { message: err.message, accepts: takes(path, range) };
      throw err;
    }
  }
  return null;
}

/** What a bound property takes, in words: its range where it has one. */
function takes(path: string, [min, max]: readonly [number | undefined, number | undefined]): string {
  const words =
    min !== undefined && max !== undefined
      ? `a number from ${min} to ${max}`
      : min !== undefined
        ? `a number of at least ${min}`
        : max !== undefined
          ? `a number of at most ${max}`
          : 'a value';
  return `${words}, as "${path}" takes`;
}

/** checkProps for callers that throw: bad_argument naming the input and what it accepts. */
export function requireProps(comp: Composition, props: Readonly<Record<string, unknown>>): Props {
  const checked = checkProps(comp, props);
  if (checked.ok) return checked.props;
  throw new EngineError(
    'bad_argument',
    checked.message,
    (w) => `Pass ${w.param('props')} with ${checked.accepts}.`,
  );
}

/**
 * Props from text fields (a CSV row): each field is read as its input's type wants (a number from "12.5",
 * a boolean from true/false/1/0/yes/no). An empty field is left out, so the input keeps its default. Fields that
 * are not inputs stay strings, for checkProps to refuse by name.
 */
export function propsFromText(
  comp: Composition,
  row: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(row)) {
    if (text === '') continue;
    const input = inputsOf(comp).find((i) => i.name === name);
    out[name] = input ? fromText(input, text) : text;
  }
  return out;
}

function fromText({ type, choices }: Pick<TemplateInput, 'type' | 'choices'>, text: string): unknown {
  // "a, b" CSV is read as the header is (trimmed), as colours, numbers and booleans are: " left" is "left".
  if (type === 'choice' && !choices?.includes(text) && choices?.includes(text.trim())) return text.trim();
  if (type === 'number') {
    const n = text.trim() === '' ? NaN : Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (type === 'boolean') {
    const t = text.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(t)) return true;
    if (['false', '0', 'no'].includes(t)) return false;
  }
  return text;
}
