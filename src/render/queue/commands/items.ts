/**
 * The render queue's item commands: renderQueue.add/remove/clear/list. They only edit or read the document
 * (no I/O), so a pure engine can include them without a render service (see queueItemCommands).
 */
import { z } from 'zod';
import {
  ALPHA_FORMATS,
  defineCommand,
  describeFormats,
  DESTRUCTIVE_EDIT,
  EDIT,
  EngineError,
  formatSpec,
  formatsWhere,
  listWords,
  OUTPUT_FORMATS,
  OutputFormat,
  READ_ONLY,
  SOUND_FORMATS,
  Encoding,
  type AnyCommand,
  type Composition,
  type Remedy,
  type RenderQueueItem,
} from '../../../engine/index.js';
import { LIMITS } from '../../../engine/limits.js';
import { AbsPath, CompRef } from '../../../engine/commands/params.js';
import { checkRenderItem, type RenderItemFields } from '../../../engine/render-item-rules.js';
import { findComp, newId } from '../../../engine/resolve.js';
import { requireProps } from '../../../engine/template-inputs.js';
import { frameSpan, framesOf } from '../plan.js';
import { outputSize } from '../../output-size.js';
import { refuseFootageOverwrite } from '../output-overlap.js';
import type { StatusSource } from '../status.js';
import { frameStep } from '../exporters/ffmpeg-formats.js';

const NO_ALPHA = OUTPUT_FORMATS.filter((f) => !formatSpec(f).alpha);

/** The settings renderQueue.add and renderQueue.update both take, with the same schemas. */
const ItemSettings = {
  format: OutputFormat.optional(),
  frameRange: z
    .strictObject({ start: z.number().int().min(0), end: z.number().int().min(0) })
    .optional()
    .describe('Frames, inclusive, as {start, end}: {"start": 0, "end": 29} (default: the whole composition)'),
  scale: z
    .number()
    .positive()
    .max(4)
    .optional()
    .describe('Output size factor: 1, 0.5, 0.25 or any number up to 4'),
  skipExisting: z
    .boolean()
    .optional()
    .describe('Leave frames whose file already exists (on any volume) untouched'),
  alpha: z
    .boolean()
    .optional()
    .describe(
      `RGB + Alpha: keep the background transparent and write straight alpha (default false: flattened on the comp background). Not for ${listWords(NO_ALPHA)}`,
    ),
  audio: z
    .boolean()
    .optional()
    .describe(
      `Mix the composition's sound into the output (default true; ${listWords(SOUND_FORMATS)} carry sound). false leaves it out; a composition without sound writes no audio stream either way`,
    ),
  encoding: Encoding.optional().describe(
    "Encoder settings: codec, crf, proresProfile, quality, gifPalette, gifDither, x264Preset, audioCodec, audioBitrate, audioBitDepth; each checked against the format (default: the format's own)",
  ),
  props: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Values for the composition\'s template inputs by name (input.list shows them), e.g. {"name": "Ada", "accent": "#ff8800"}: text a string, color "#rrggbb" or a CSS name, number, boolean, footage an absolute path, choice one of its values. Checked now; applied to the render\'s snapshot only, never to the document. Inputs left out render their defaults',
    ),
};

/**
 * Applies the shared rules to `item` (of composition `comp`); throws bad_argument with the remedy. `given`: the
 * fields an update passed; a field at fault that the item only kept from before gets a remedy that says so, as
 * "leave out audio" means nothing to a caller who never passed it.
 */
function checked(item: RenderItemFields, comp: Composition, given?: ReadonlySet<string>) {
  // The same rules hold every item of a project file (project.open) and every item a render plans.
  const result = checkRenderItem(item, comp);
  if (result.ok) return result.format;
  const kept = given && !given.has(result.field) ? keptRemedy(result.field, item) : undefined;
  throw new EngineError(result.code, result.message, kept ?? result.remediation);
}

/** What an update that left `field` out can pass to change the value the item kept. */
function keptRemedy(field: keyof RenderItemFields, item: RenderItemFields): Remedy | undefined {
  const value = JSON.stringify(item[field]);
  const before = `The item has ${field} ${value} from before (an update keeps what it leaves out).`;
  if (field === 'audio') return (w) => `${before} Pass ${w.param('audio')} true in this update.`;
  if (field === 'alpha')
    return (w) =>
      `${before} Pass ${w.param('alpha')} false in this update, or pick a format that carries alpha.`;
  if (field === 'encoding')
    return (w) =>
      `${before} Pass ${w.param('encoding')} in this update: {} clears it, or give the settings that fit the new format (it replaces the whole encoding).`;
  if (field === 'overflow')
    return `${before} An update cannot change overflow: remove the item (renderQueue.remove) and add it again without it.`;
  return undefined;
}

const renderQueueAdd = defineCommand({
  id: 'renderQueue.add',
  title: 'Add to Render Queue',
  category: 'Render',
  description: `Queues a composition for rendering. encoding sets codec, CRF, ProRes profile, JPEG/WebP quality, GIF palette and dither, x264 preset, and the sound's codec and bitrate. output is an absolute path template: sequences need a frame field (shot_[#####].png); video, animated and audio formats write one file. Formats: ${describeFormats(OUTPUT_FORMATS).join(', ')}; inferred from the extension when omitted. alpha:true renders RGB + Alpha (transparent background, straight alpha) in ${listWords(describeFormats(ALPHA_FORMATS, true), 'and')}. The composition's sound (footage layers with audio, precomps included) is mixed to 48 kHz stereo and muxed into ${listWords(
    formatsWhere((s) => s.sound === 'muxed'),
    'and',
  )} (AAC 192 kb/s in mp4, Opus 160 kb/s in webm, 24-bit PCM in mov, or AAC with encoding.audioCodec "aac"); audio:false leaves it out. props gives the composition's template inputs values for this item (input.list shows them), applied to the render's snapshot only.`,
  example: { comp: 'Main', output: '/projects/out/main.mp4', format: 'mp4' },
  params: z.strictObject({
    comp: CompRef.describe('Composition id, or its name when unique (required)'),
    output: AbsPath.describe('Absolute output path template'),
    ...ItemSettings,
    overflow: z
      .array(z.strictObject({ dir: AbsPath, minFreeBytes: z.number().int().min(0).optional() }))
      .optional()
      .describe('Directories to continue a sequence in when the output volume is full'),
  }),
  pathParams: { output: 'write', 'overflow[].dir': 'write' },
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const format = checked(p, comp);
    const props = p.props && requireProps(comp, p.props);
    const overflow = (p.overflow ?? []).map((o) => ({ dir: o.dir, minFreeBytes: o.minFreeBytes ?? 0 }));
    const span = frameSpan({ frameRange: p.frameRange ?? null }, comp)!;
    refuseFootageOverwrite(
      ctx.doc,
      { comp: comp.id, output: p.output, overflow },
      span,
      'This output',
      false,
    );
    let id = '';
    ctx.update((d) => {
      id = newId(d, 'rq');
      const item: RenderQueueItem = {
        id,
        comp: comp.id,
        output: p.output,
        format,
        frameRange: p.frameRange ?? null,
        scale: p.scale ?? 1,
        skipExisting: p.skipExisting ?? false,
        overflow,
        alpha: p.alpha ?? false,
        audio: p.audio ?? true,
        ...(p.encoding && { encoding: p.encoding }),
        ...(props && { props }),
      };
      d.renderQueue.push(item);
    });
    warnSettings(
      ctx,
      comp,
      { format, scale: p.scale ?? 1, alpha: p.alpha ?? false, encoding: p.encoding },
      p.audio,
    );
    return { id, format };
  },
});

const renderQueueUpdate = defineCommand({
  id: 'renderQueue.update',
  title: 'Edit Render Queue Item',
  category: 'Render',
  description:
    "Changes a queue item's output, format, frame range, scale, skipExisting, alpha, audio, encoding or props; fields left out keep their values. props replaces the item's props ({} clears them). A new output without a format takes the format from its extension. encoding replaces the item's encoding ({} clears it). The item is checked as renderQueue.add checks a new one; a refused edit leaves it unchanged.",
  example: { id: 'rq_1', encoding: { crf: 18 } },
  params: z.strictObject({
    id: z.string().min(1).describe('Queue item id'),
    output: AbsPath.optional().describe('Absolute output path template'),
    ...ItemSettings,
    frameRange: ItemSettings.frameRange
      .unwrap()
      .nullable()
      .optional()
      .describe('Frames, inclusive, as {start, end}; null: the whole composition'),
  }),
  pathParams: { output: 'write' },
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const { id, ...changes } = p;
    const item = findItem(ctx.doc.renderQueue, id);
    const comp = findComp(ctx.doc, item.comp);
    // A new output names its own format unless one is given; otherwise the item keeps its format.
    const format = changes.format ?? (changes.output === undefined ? item.format : undefined);
    const { props: given, ...rest } = changes;
    const props = given && requireProps(comp, given);
    const next = { ...item, ...rest, format, ...(props && { props }) };
    const resolved = checked(next, comp, new Set(Object.keys(changes)));
    refuseFootageOverwrite(ctx.doc, next, frameSpan(next, comp)!, `Queue item "${id}"`);
    ctx.update((d) => {
      const i = d.renderQueue.findIndex((q) => q.id === id);
      d.renderQueue[i] = { ...next, format: resolved };
    });
    warnSettings(ctx, comp, { ...next, format: resolved }, changes.audio);
    return { id, format: resolved };
  },
});

const ordinal = (n: number) => (n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`);

/** Formats whose 4:2:0 picture needs even sizes: an odd frame is padded with a black (or clear) row or column. */
const EVEN_ONLY = new Set<string>(['mp4', 'webm']);

/**
 * The size the file's picture gets when it is not the item's own, and why: 4:2:0 pads both sizes to even, and
 * ProRes 4:2:2 (a MOV without alpha, any profile but 4444) the width (ffmpeg-formats.ts).
 */
function paddedSize(
  item: Pick<RenderQueueItem, 'format' | 'alpha' | 'encoding'>,
  width: number,
  height: number,
): { size: string; why: string; fill: string } | null {
  if (EVEN_ONLY.has(item.format) && (width % 2 || height % 2))
    return {
      size: `${width + (width % 2)}x${height + (height % 2)}`,
      why: `${item.format.toUpperCase()} video is 4:2:0, which needs even sizes`,
      fill: 'a black row or column; clear with alpha',
    };
  const prores422 = item.format === 'mov' && !item.alpha && item.encoding?.proresProfile !== '4444';
  if (prores422 && width % 2)
    return {
      size: `${width + 1}x${height}`,
      why: 'MOV video is ProRes 4:2:2, which needs an even width',
      fill: 'a black column; none with alpha or proresProfile 4444',
    };
  return null;
}

/** Says when the size asked for is not what the file gets: padded to even sizes, or a scale a sound file ignores. */
function warnSettings(
  ctx: { warn(message: string): void },
  comp: Composition,
  item: Pick<RenderQueueItem, 'format' | 'scale' | 'alpha' | 'encoding'>,
  /** The audio setting the call passed (not one the item kept). */
  audio?: boolean,
): void {
  const { format, scale } = item;
  const sound = formatSpec(format as OutputFormat).sound;
  if (sound === 'only' && scale !== 1)
    ctx.warn(`scale ${scale} does nothing for ${format.toUpperCase()}, which is sound only.`);
  if (sound === 'none' && audio === true)
    ctx.warn(
      `audio: true does nothing for ${format.toUpperCase()}, which has no sound: render MP4, MOV or WebM for a picture with sound, or WAV, MP3 or M4A for the sound alone.`,
    );
  const step = format === 'gif' || format === 'webp-anim' ? frameStep(format, comp.frameRate) : 1;
  if (step > 1) {
    const why =
      format === 'gif'
        ? 'GIF delays are whole 1/100 s and players show one under 2/100 s as 1/10 s'
        : 'browsers show an animated WebP delay of 10 ms or less as 100 ms';
    ctx.warn(
      `${why}, so the ${comp.frameRate} fps composition is written at ${+(comp.frameRate / step).toFixed(3)} fps (every ${ordinal(step)} frame) to play at its speed. Render a video for every frame.`,
    );
  }
  const { width, height } = outputSize(comp, scale);
  const padded = paddedSize(item, width, height);
  if (!padded) return;
  ctx.warn(
    `${width}x${height} is odd: ${padded.why}, so each frame is padded to ${padded.size} (${padded.fill}). Give the composition even sizes, or another scale, for a file of exactly the composition's size.`,
  );
}

/** The queue item `id`, or not_found naming the items there are. */
export function findItem(queue: readonly RenderQueueItem[], id: string): RenderQueueItem {
  const item = queue.find((q) => q.id === id);
  if (item) return item;
  throw new EngineError(
    'not_found',
    `No render queue item "${id}". Items: ${queue.map((q) => q.id).join(', ') || 'none'}.`,
    (w) => `Pass an id from ${w.queue}.`,
  );
}

const renderQueueRemove = defineCommand({
  id: 'renderQueue.remove',
  title: 'Remove from Render Queue',
  category: 'Render',
  description:
    "Removes an item from the render queue. An item removed while rendering is left out of the job's result and counted as failed.",
  example: { id: 'rq_1' },
  params: z.strictObject({ id: z.string().min(1) }),
  pathParams: {},
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    findItem(ctx.doc.renderQueue, p.id);
    ctx.update((d) => void (d.renderQueue = d.renderQueue.filter((q) => q.id !== p.id)));
    return { id: p.id, removed: true };
  },
});

const renderQueueClear = defineCommand({
  id: 'renderQueue.clear',
  title: 'Clear Render Queue',
  category: 'Render',
  description: 'Removes every item from the render queue.',
  example: {},
  params: z.strictObject({}),
  pathParams: {},
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx) {
    const removed = ctx.doc.renderQueue.length;
    if (removed) ctx.update((d) => void (d.renderQueue = []));
    return { removed };
  },
});

/** How many items renderQueue.list gives unless asked for more: about 25 KB of JSON. */
const LIST_PAGE = 100;
const ITEM_STATUSES = ['queued', 'rendering', 'done', 'failed', 'stopped'] as const;

/** renderQueue.list merges the document's items with live statuses from the render service. */
function renderQueueList(statusOf: StatusSource) {
  return defineCommand({
    id: 'renderQueue.list',
    title: 'List Render Queue',
    category: 'Render',
    description: `Lists queue items (comp, output, format, alpha, frame range, ...) with status (queued, rendering, done, failed, stopped), frames done/total (for a stopped or failed item, how far it got), files written (kept), error, warnings (what the render's result said besides its files: a mix that is silence, footage left unchecked), and for a done item the manifest (a JSON file listing every file it wrote with its size and sha256). status: only items with that status. A page of limit items (default ${LIST_PAGE}) from offset; total counts the matching items, next_offset is there when more follow.`,
    example: { status: 'failed' },
    params: z.strictObject({
      status: z.enum(ITEM_STATUSES).optional().describe('Only items with this status'),
      offset: z.number().int().min(0).optional().describe('First matching item to list (default 0)'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(LIMITS.renderQueue.max)
        .optional()
        .describe(`Items to list at most (default ${LIST_PAGE})`),
    }),
    pathParams: {},
    annotations: READ_ONLY,
    mutates: false,
    run(ctx, p) {
      const all = ctx.doc.renderQueue.map((q) => ({
        ...q,
        ...(statusOf(q.id) ?? {
          status: 'queued' as const,
          framesDone: 0,
          framesTotal: framesOf(ctx.doc, q),
          files: 0,
        }),
      }));
      // A queue of hundreds of items is hundreds of KB: a model reads pages (and the failed ones, by status).
      const matching = p.status ? all.filter((i) => i.status === p.status) : all;
      const offset = p.offset ?? 0;
      const items = matching.slice(offset, offset + (p.limit ?? LIST_PAGE));
      const next = offset + items.length;
      return {
        items,
        total: matching.length,
        ...(next < matching.length && {
          next_offset: next,
          note: `${matching.length - next} more item(s): renderQueue.list {offset: ${next}}.`,
        }),
      };
    },
  });
}

/** The item commands; `statusOf` gives renderQueue.list live statuses (default: every item reads as queued). */
export function queueItemCommands(statusOf: StatusSource = () => undefined): AnyCommand[] {
  return [
    renderQueueAdd,
    renderQueueUpdate,
    renderQueueRemove,
    renderQueueClear,
    renderQueueList(statusOf),
  ] as AnyCommand[];
}
