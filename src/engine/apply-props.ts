/**
 * A render's props applied to a document: the copy a job renders, never the live document or the file. Pure:
 * a footage prop's file is probed by the caller (the render job, through the engine's ports) and handed in.
 */
import { produce, type Draft } from 'immer';
import { EngineError } from './errors.js';
import { followNewPicture } from './footage-anchor.js';
import { shownFootage } from './shown-footage.js';
import type { Composition, FootageItem, InputValue, Layer, Project, Props } from './model.js';
import { coerceValue, draftAnimatable, setPlain } from './properties.js';
import { bindingTarget, inputsOf, requireProps, type BindingTarget } from './template-inputs.js';

/** What probing a footage prop's file found: a footage item's fields besides its id and name. */
export type ProbedFootage = Pick<FootageItem, 'path' | 'width' | 'height' | 'format' | 'media'>;

/** The footage files `props` name (footage inputs' values), which the caller probes before applyProps. */
export function footageProps(comp: Composition, props: Readonly<Record<string, unknown>>): string[] {
  return inputsOf(comp)
    .filter((i) => i.type === 'footage' && typeof props[i.name] === 'string')
    .map((i) => props[i.name] as string);
}

/**
 * `doc` with `props` applied to composition `compId`: each given input's value written to every property it is
 * bound to (an animated property loses its keys: the value replaces it), the `enabled` switch set, a footage
 * layer pointed at a new footage item for the file (from `footage`, by path). Inputs not given keep what the
 * document holds (their defaults). Throws bad_argument for props that do not fit the inputs.
 */
export function applyProps(
  doc: Project,
  compId: string,
  props: Props,
  footage: ReadonlyMap<string, ProbedFootage> = new Map(),
): Project {
  const comp = doc.items.find((i): i is Composition => i.type === 'composition' && i.id === compId);
  if (!comp)
    throw new EngineError('not_found', `No composition "${compId}".`, (w) => `${w.inspect} lists them.`);
  const values = requireProps(comp, props);
  if (!Object.keys(values).length) return doc;
  const taken = new Set(doc.items.map((i) => i.id));
  return produce(doc, (d) => {
    const c = d.items.find((i) => i.id === compId) as Composition;
    for (const input of inputsOf(comp)) {
      const value = values[input.name];
      if (value === undefined) continue;
      let footageId: string | undefined;
      for (const b of input.bindings) {
        const layer = c.layers.find((l) => l.id === b.layer);
        const original = comp.layers.find((l) => l.id === b.layer);
        if (!layer || !original) continue;
        const target = bindingTarget(original, b.property, input.type);
        if (target.kind !== 'footage') writeBound(layer, target, value);
        else if (layer.source.kind === 'footage') {
          checkKindKept(doc, original, input.name, value as string, footage);
          footageId ??= addFootage(d, taken, input.name, value as string, footage);
          layer.source.footage = footageId;
          const [was, now] = [shownFootage(doc, original), footage.get(value as string)];
          // A music bed given a video with sound plays its sound; its picture stays off (the eye switch: a
          // hidden layer is heard), where it covered the whole template.
          if (was?.media?.kind === 'audio' && now?.media?.kind !== 'audio') layer.enabled = false;
          if (was && now) followNewPicture(layer, [c.width, c.height], was, now);
        }
      }
    }
  });
}

/**
 * Writes an input's value to one binding of a draft layer (a property or the enabled switch; footage is
 * applyProps' own). A property's keys go: the value replaces its animation. Call inside an immer recipe.
 */
export function writeBound(
  layer: Draft<Layer>,
  target: Exclude<BindingTarget, { kind: 'footage' }>,
  value: InputValue,
): void {
  if (target.kind === 'enabled') {
    layer.enabled = value as boolean;
    return;
  }
  const coerced = coerceValue(target.ref, value, target.path);
  if (!target.ref.animatable) return setPlain(layer, target.ref, coerced);
  const prop = draftAnimatable(layer, target.ref);
  prop.value = coerced as never;
  prop.keyframes = [];
}

/**
 * What the layer gives must still be there. A file with sound only for a layer that shows a picture (its default
 * is an image or a video) would leave the layer showing nothing, and a batch of such renders black frames without
 * a word; a file without sound for a layer that plays sound only (a music bed given a still, or a video with no
 * audio track) renders silence, as quietly. Both are refused, naming the input and the layer. A sound file fits a
 * music bed, and a video with sound fits either (a bed plays only its sound: applyProps hides its picture).
 */
function checkKindKept(
  doc: Project,
  layer: Layer,
  input: string,
  path: string,
  footage: ReadonlyMap<string, ProbedFootage>,
): void {
  const given = footage.get(path)?.media;
  const shown = shownFootage(doc, layer);
  if (!shown) return;
  const bed = shown.media?.kind === 'audio';
  if (given?.kind === 'audio' && !bed)
    throw new EngineError(
      'bad_argument',
      `Input "${input}" was given "${path}", which has sound only, for layer "${layer.name}", which shows a picture (its default "${shown.name}").`,
      `Give "${input}" an image or a video file; a sound file fits an input bound to a layer that plays sound only.`,
    );
  if (bed && !given?.audio)
    throw new EngineError(
      'bad_argument',
      `Input "${input}" was given "${path}", which has no sound, for layer "${layer.name}", which plays sound only (its default "${shown.name}"): it would render silence.`,
      `Give "${input}" a sound file (WAV, MP3, AAC, FLAC, Opus) or a video with an audio track.`,
    );
}

/** Adds the probed file as a footage item of the copy; returns its id (one not used in the document). */
function addFootage(
  d: Project,
  taken: Set<string>,
  input: string,
  path: string,
  footage: ReadonlyMap<string, ProbedFootage>,
): string {
  const probed = footage.get(path);
  if (!probed)
    throw new EngineError(
      'bad_argument',
      `The file "${path}" of input "${input}" was not probed before the props were applied.`,
      'Render again; if it repeats, report it.',
    );
  let id = `input_${input}`;
  for (let n = 2; taken.has(id); n++) id = `input_${input}_${n}`;
  taken.add(id);
  d.items.push({ type: 'footage', id, name: input, ...probed });
  return id;
}
