/**
 * Template inputs of a composition: define, bind, unbind, list, remove. A bound property holds the input's
 * default in the document, so a render without props (and a preview) shows the template as designed; a render
 * with props applies them to its snapshot only (apply-props.ts).
 */
import { z } from 'zod';
import { writeBound } from '../apply-props.js';
import { defineCommand, DESTRUCTIVE_EDIT, EDIT, READ_ONLY, type CommandContext } from '../catalog.js';
import { EngineError } from '../errors.js';
import {
  INPUT_TYPES,
  InputName,
  InputValue,
  type Composition,
  type InputBinding,
  type TemplateInput,
} from '../model.js';
import { coerceValue, readProperty } from '../properties.js';
import { draftComp, findComp, findLayer } from '../resolve.js';
import {
  BINDS_TO,
  bindingTarget,
  checkInputValue,
  checkProps,
  describeInputs,
  ENABLED_TARGET,
  inputsOf,
  SOURCE_TARGET,
} from '../template-inputs.js';
import { needsComp } from './layer-add.js';
import { CompRef, LayerRef } from './params.js';

const Name = InputName.describe(
  'Input name: a letter, then up to 63 letters, digits, _ or -; the key in props, the CSV column and the {field} of output templates',
);
const Target = z
  .string()
  .min(1)
  .describe(
    `What the input drives on the layer: a property path (text.text, solid.color, transform.opacity, ...), "${ENABLED_TARGET}" (the layer switch) or "${SOURCE_TARGET}" (a footage layer's file)`,
  );
const Binding = z.strictObject({ layer: LayerRef, property: Target });
const TYPE_WORDS = INPUT_TYPES.map((t) => `${t}: ${BINDS_TO[t]}`).join('; ');

/** The input called `name` of `comp`, or not_found naming the inputs there are. */
function findInput(comp: Composition, name: string): TemplateInput {
  const input = inputsOf(comp).find((i) => i.name === name);
  if (input) return input;
  const names =
    inputsOf(comp)
      .map((i) => i.name)
      .join(', ') || 'none';
  throw new EngineError(
    'not_found',
    `"${comp.name}" has no input "${name}" (its inputs: ${names}).`,
    'Define it with input.define, or pass one of its inputs.',
  );
}

/** Resolves layer refs to ids and checks each binding fits the input type; throws bad_argument. */
function resolveBindings(
  comp: Composition,
  type: TemplateInput['type'],
  bindings: readonly { layer: string; property: string }[],
): InputBinding[] {
  return bindings.map((b) => {
    const layer = findLayer(comp, b.layer);
    bindingTarget(layer, b.property, type);
    return { layer: layer.id, property: b.property };
  });
}

/** What a binding holds now: the default of an input defined without one. */
function currentValue(
  ctx: CommandContext,
  comp: Composition,
  binding: InputBinding,
  type: TemplateInput['type'],
) {
  const layer = comp.layers.find((l) => l.id === binding.layer)!;
  const target = bindingTarget(layer, binding.property, type);
  if (target.kind === 'enabled') return layer.enabled;
  if (target.kind === 'footage') {
    const id = layer.source.kind === 'footage' ? layer.source.footage : '';
    const item = ctx.doc.items.find((i) => i.id === id);
    return item?.type === 'footage' ? item.path : undefined;
  }
  const value = readProperty(layer, target.ref);
  return target.ref.animatable ? (value as { value: unknown }).value : value;
}

/** A type's default when neither "default" nor a binding gives one. */
function typeDefault(type: TemplateInput['type'], choices: readonly string[] | undefined): unknown {
  if (type === 'choice') return choices?.[0];
  return { text: '', color: '#ffffff', number: 0, boolean: true, footage: undefined }[type];
}

/** `input` with its default checked against its type and every bound property (range); throws bad_argument. */
function checked(comp: Composition, input: Omit<TemplateInput, 'default'>, value: unknown): TemplateInput {
  const result = checkInputValue(input, value);
  if (!result.ok)
    throw new EngineError(
      'bad_argument',
      `The default of input "${input.name}" (${input.type}) must be ${result.accepts}; got ${JSON.stringify(value) ?? 'nothing'}.`,
      `Pass "default" as ${result.accepts}.`,
    );
  if (input.type === 'choice') {
    const dup = input.choices!.find((c, i) => input.choices!.indexOf(c) !== i);
    if (dup !== undefined)
      throw new EngineError('bad_argument', `Choice "${dup}" is listed twice.`, 'List each choice once.');
  }
  for (const b of input.bindings) {
    // A binding whose layer was deleted drives nothing (undo may bring the layer back).
    const layer = comp.layers.find((l) => l.id === b.layer);
    if (!layer) continue;
    const target = bindingTarget(layer, b.property, input.type);
    if (target.kind !== 'property') continue;
    // Every choice must be a value the property takes (text.align takes left, center, right).
    const values = input.type === 'choice' ? input.choices! : [result.value];
    for (const v of values) coerceValue(target.ref, v, `${layer.name}/${b.property}`);
  }
  // In the schema's key order, so a saved file reads back to the same text.
  return {
    name: input.name,
    type: input.type,
    default: result.value,
    ...(input.choices && { choices: input.choices }),
    bindings: input.bindings,
  };
}

/** Stores `input` (replacing one of its name) and writes its default to every binding but footage sources. */
function store(ctx: CommandContext, comp: Composition, input: TemplateInput): void {
  ctx.update((d) => {
    const c = draftComp(d, comp.id);
    const inputs = (c.inputs ??= []);
    const at = inputs.findIndex((i) => i.name === input.name);
    if (at >= 0) inputs[at] = input;
    else inputs.push(input);
    for (const b of input.bindings) {
      const original = comp.layers.find((l) => l.id === b.layer);
      const layer = c.layers.find((l) => l.id === b.layer);
      if (!original || !layer) continue;
      const target = bindingTarget(original, b.property, input.type);
      if (target.kind !== 'footage') writeBound(layer, target, input.default);
    }
  });
  // A project must always reopen, and its queued renders keep working: an input change that a queued item's
  // props no longer fit (a new type, a narrower property) is refused, as comp.setSettings refuses its own.
  const changed = findComp(ctx.doc, comp.id);
  for (const item of ctx.doc.renderQueue.filter((q) => q.comp === comp.id && q.props)) {
    const fit = checkProps(changed, item.props!);
    if (!fit.ok)
      throw new EngineError(
        'bad_argument',
        `This change would break render queue item "${item.id}": ${fit.message}`,
        'Give that item other props (renderQueue.update {id, props}) or remove it first.',
      );
  }
}

const inputDefine = defineCommand({
  id: 'input.define',
  title: 'Define Template Input',
  category: 'Template',
  description: `Defines (or redefines) a named, typed input of a composition, with a default, optionally bound to layer properties. Types and what they bind to: ${TYPE_WORDS}. The bound properties are set to the default (one undo step); a render with props applies values to its snapshot only. Without "default", the first binding's current value is the default (else "", #ffffff, 0, true, the first choice).`,
  example: {
    comp: 'Lower third',
    name: 'name',
    type: 'text',
    default: 'Ada',
    bind: [{ layer: 'Name', property: 'text.text' }],
  },
  params: z.strictObject({
    comp: CompRef.optional(),
    name: Name,
    type: z.enum(INPUT_TYPES).describe(`Input type: ${INPUT_TYPES.join(', ')}`),
    default: InputValue.optional().describe(
      'The value rendered when no prop is given: text a string, color "#rrggbb" or a CSS name, number, boolean, footage an absolute path, choice one of "choices"',
    ),
    choices: z
      .array(z.string().min(1))
      .min(1)
      .max(256)
      .optional()
      .describe('choice inputs: the values it accepts'),
    bind: z
      .array(Binding)
      .max(256)
      .optional()
      .describe('Layer properties this input drives (more with input.bind)'),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    if ((p.type === 'choice') !== (p.choices !== undefined))
      throw new EngineError(
        'bad_argument',
        p.type === 'choice' ? 'A choice input needs "choices".' : `A ${p.type} input takes no "choices".`,
        p.type === 'choice'
          ? 'Pass "choices": the values it accepts.'
          : 'Leave out "choices", or use type "choice".',
      );
    const previous = inputsOf(comp).find((i) => i.name === p.name);
    // Redefining keeps the bindings that still fit the new type; new ones are added.
    const kept = (previous?.bindings ?? []).filter((b) => {
      try {
        bindingTarget(findLayer(comp, b.layer), b.property, p.type);
        return true;
      } catch {
        return false;
      }
    });
    const added = resolveBindings(comp, p.type, p.bind ?? []);
    const bindings = [...kept, ...added.filter((a) => !kept.some((k) => same(k, a)))];
    const dflt =
      p.default ??
      (bindings[0] ? currentValue(ctx, comp, bindings[0], p.type) : typeDefault(p.type, p.choices));
    const input = checked(
      comp,
      { name: p.name, type: p.type, ...(p.choices && { choices: p.choices }), bindings },
      dflt,
    );
    store(ctx, comp, input);
    return { comp: comp.id, input };
  },
});

/** input.bind and input.unbind name one binding the same way. */
const ONE_BINDING = {
  example: { comp: 'Lower third', input: 'accent', layer: 'Bar', property: 'solid.color' },
  params: z.strictObject({ comp: CompRef.optional(), input: Name, layer: LayerRef, property: Target }),
  pathParams: {},
  enabled: needsComp,
  mutates: true,
};

const same = (a: InputBinding, b: InputBinding) => a.layer === b.layer && a.property === b.property;

const inputBind = defineCommand({
  id: 'input.bind',
  title: 'Bind Template Input',
  category: 'Template',
  description: `Binds an input to one more layer property (or "${ENABLED_TARGET}", or "${SOURCE_TARGET}" of a footage layer); the property is set to the input's default. Animated properties cannot be bound.`,
  ...ONE_BINDING,
  annotations: EDIT,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const input = findInput(comp, p.input);
    const [binding] = resolveBindings(comp, input.type, [p]);
    if (input.bindings.some((b) => same(b, binding!))) return { comp: comp.id, input };
    const next = checked(comp, { ...input, bindings: [...input.bindings, binding!] }, input.default);
    store(ctx, comp, next);
    return { comp: comp.id, input: next };
  },
});

const inputUnbind = defineCommand({
  id: 'input.unbind',
  title: 'Unbind Template Input',
  category: 'Template',
  description: 'Removes one binding of an input; the property keeps the value it has.',
  ...ONE_BINDING,
  annotations: DESTRUCTIVE_EDIT,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const input = findInput(comp, p.input);
    // A deleted layer's binding is unbound by the layer id input.list shows.
    const dangling = input.bindings.some(
      (b) => b.layer === p.layer && !comp.layers.some((l) => l.id === b.layer),
    );
    const layerId = dangling ? p.layer : findLayer(comp, p.layer).id;
    const bindings = input.bindings.filter((b) => !same(b, { layer: layerId, property: p.property }));
    if (bindings.length === input.bindings.length)
      throw new EngineError(
        'not_found',
        `Input "${input.name}" is not bound to "${p.property}" of layer "${p.layer}".`,
        'input.list shows its bindings.',
      );
    ctx.update((d) => {
      const c = draftComp(d, comp.id);
      c.inputs!.find((i) => i.name === input.name)!.bindings = bindings;
    });
    return { comp: comp.id, input: { ...input, bindings } };
  },
});

const inputList = defineCommand({
  id: 'input.list',
  title: 'List Template Inputs',
  category: 'Template',
  description:
    'Lists the inputs of a composition: name, type, default, choices, and the layers and properties each drives.',
  example: { comp: 'Lower third' },
  params: z.strictObject({ comp: CompRef.optional() }),
  pathParams: {},
  enabled: needsComp,
  annotations: READ_ONLY,
  mutates: false,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    return { comp: comp.id, inputs: describeInputs(comp) };
  },
});

const inputRemove = defineCommand({
  id: 'input.remove',
  title: 'Remove Template Input',
  category: 'Template',
  description:
    'Removes an input; the properties it drove keep their values. Refused while a render queue item of the composition has a prop for it.',
  example: { comp: 'Lower third', name: 'accent' },
  params: z.strictObject({ comp: CompRef.optional(), name: Name }),
  pathParams: {},
  enabled: needsComp,
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    findInput(comp, p.name);
    const users = ctx.doc.renderQueue.filter((q) => q.comp === comp.id && q.props && p.name in q.props);
    if (users.length)
      throw new EngineError(
        'bad_argument',
        `Render queue items ${users.map((q) => q.id).join(', ')} give input "${p.name}" a value.`,
        'Remove those items (renderQueue.remove), or give them props without it (renderQueue.update), first.',
      );
    ctx.update((d) => {
      const c = draftComp(d, comp.id);
      c.inputs = c.inputs!.filter((i) => i.name !== p.name);
    });
    return { comp: comp.id, removed: p.name };
  },
});

export const inputCommands = [inputDefine, inputBind, inputUnbind, inputList, inputRemove];
