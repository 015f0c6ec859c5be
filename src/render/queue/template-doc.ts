/**
 * The document a queue item renders: the job's snapshot with the item's props applied (apply-props.ts). A
 * footage prop's file is probed here, through the engine's ports (so confinement applies), as file.import would,
 * and read like the footage it replaces: a numbered image (`shot_1001.png`) given for an image sequence starts one
 * at the replaced one's frame rate, and a pattern (`shot_%04d.png`) plays at the replaced footage's rate (a CSV
 * row or a --props value has no place for `sequence: true` or a frame rate).
 */
import {
  applyProps,
  requireProps,
  type Props,
  audioStreamsOf,
  EngineError,
  footageProps,
  inputsOf,
  shownFootage,
  type Composition,
  type EnginePorts,
  type FootageItem,
  type ProbedFootage,
  type Project,
  type RenderQueueItem,
} from '../../engine/index.js';
import { importMedia, isStillName } from '../../engine/commands/media-import.js';
import { formatSpec } from '../../engine/output-formats.js';

/**
 * `doc` as `item` renders it: unchanged without props; a new document with them (the snapshot is untouched).
 * `warn` hears what a footage value's import leaves out, as file.import's warnings say it: a sequence cut at a
 * gap, or at a frame that leads outside the roots, renders with nothing where the rest would be.
 */
export async function templateDoc(
  doc: Project,
  item: RenderQueueItem,
  ports: EnginePorts,
  warn: (message: string) => void = () => undefined,
): Promise<Project> {
  if (!item.props || !Object.keys(item.props).length) return doc;
  const comp = doc.items.find((i) => i.id === item.comp);
  if (comp?.type !== 'composition') return doc;
  const { applied, footage } = await withProps(doc, comp, item.props, ports, warn);
  if (item.audio && formatSpec(item.format).sound !== 'none') checkStreams(comp, item.props, footage);
  return applied;
}

/**
 * `doc` with `props` given to composition `compId`'s inputs (checked: bad_argument naming the input), each
 * footage value probed through `ports` (so confinement applies): a frame of a template as a render of those
 * values shows it (frame.preview and frame.save's props). Unchanged without props.
 */
export async function propsDoc(
  doc: Project,
  compId: string,
  props: Readonly<Record<string, unknown>> | undefined,
  ports: EnginePorts,
  warn: (message: string) => void,
): Promise<Project> {
  const comp = doc.items.find((i) => i.id === compId);
  if (!props || comp?.type !== 'composition') return doc;
  return (await withProps(doc, comp, requireProps(comp, props), ports, warn)).applied;
}

async function withProps(
  doc: Project,
  comp: Composition,
  props: Props,
  ports: EnginePorts,
  warn: (message: string) => void,
): Promise<{ applied: Project; footage: Map<string, ProbedFootage> }> {
  const footage = new Map<string, ProbedFootage>();
  const replaced = replacedFootage(doc, comp, props);
  for (const path of footageProps(comp, props)) {
    if (footage.has(path)) continue;
    const like = replaced.get(path)?.media;
    // A numbered image (shot_1001.png); an image without a number (logo.png) is a still put in its place.
    const sequence = like?.kind === 'sequence' && isStillName(path) && /\d\.[^./]+$/.test(path);
    const probed = await importMedia(
      { ports, warn: (message) => warn(`The footage value "${path}": ${message}`) },
      path,
      { sequence, frameRate: like?.frameRate ?? undefined },
    );
    footage.set(path, probed);
  }
  return { applied: applyProps(doc, comp.id, props, footage), footage };
}

/**
 * A bound layer keeps the audio stream it was told to play (layer.setAudioStream: a second language of its
 * default's file). A footage value with sound but without that stream failed only when the sound was mixed, so
 * inspect --strict passed such an item. Refused here, naming the input, for items whose output carries the
 * sound; a muted layer, or a file without sound at all (a video layer given a silent clip), plays nothing anyway.
 */
function checkStreams(
  comp: Composition,
  props: Record<string, unknown>,
  footage: ReadonlyMap<string, ProbedFootage>,
): void {
  for (const input of inputsOf(comp)) {
    const path = props[input.name];
    const probed = typeof path === 'string' ? footage.get(path) : undefined;
    if (input.type !== 'footage' || !probed?.media) continue;
    const streams = audioStreamsOf(probed).length;
    for (const binding of input.bindings) {
      const layer = comp.layers.find((l) => l.id === binding.layer);
      const stream = layer?.audio?.stream ?? 0;
      if (!layer || layer.audio?.muted || !streams || stream < streams) continue;
      throw new EngineError(
        'bad_argument',
        `Input "${input.name}" was given "${path as string}", which has ${streams} audio stream${streams === 1 ? '' : 's'}, for layer "${layer.name}", which plays stream ${stream}.`,
        `Give "${input.name}" a file with an audio stream ${stream}, or have the template's layer play one from 0 to ${streams - 1} (layer.setAudioStream).`,
      );
    }
  }
}

/** For each footage value of `props`: the footage its input's first bound layer shows in `doc` (its default). */
function replacedFootage(
  doc: Project,
  comp: Composition,
  props: Record<string, unknown>,
): Map<string, FootageItem> {
  const out = new Map<string, FootageItem>();
  for (const input of inputsOf(comp)) {
    const value = props[input.name];
    if (input.type !== 'footage' || typeof value !== 'string' || out.has(value)) continue;
    for (const binding of input.bindings) {
      const layer = comp.layers.find((l) => l.id === binding.layer);
      const shown = layer && shownFootage(doc, layer);
      if (shown) {
        out.set(value, shown);
        break;
      }
    }
  }
  return out;
}
