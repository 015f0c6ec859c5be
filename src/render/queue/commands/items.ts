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
  type AnyCommand,
  type RenderQueueItem,
} from '../../../engine/index.js';
import { AbsPath, CompRef } from '../../../engine/commands/params.js';
import { checkRenderItem } from '../../../engine/render-item-rules.js';
import { findComp, newId } from '../../../engine/resolve.js';
import { frameSpan } from '../plan.js';
import type { StatusSource } from '../status.js';

const NO_ALPHA = OUTPUT_FORMATS.filter((f) => !formatSpec(f).alpha);

const renderQueueAdd = defineCommand({
  id: 'renderQueue.add',
  title: 'Add to Render Queue',
  category: 'Render',
  description: `Queues a composition for rendering. output is an absolute path template: sequences need a frame field (shot_[#####].png); video, animated and audio formats write one file. Formats: ${describeFormats(OUTPUT_FORMATS).join(', ')}; inferred from the extension when omitted. alpha:true renders RGB + Alpha (transparent background, straight alpha) in ${listWords(describeFormats(ALPHA_FORMATS, true), 'and')}. The composition's sound (footage layers with audio, precomps included) is mixed to 48 kHz stereo and muxed into ${listWords(
    formatsWhere((s) => s.sound === 'muxed'),
    'and',
  )}; audio:false leaves it out.`,
  params: z.strictObject({
    comp: CompRef.describe('Composition id, or its name when unique (required)'),
    output: AbsPath.describe('Absolute output path template'),
    format: OutputFormat.optional(),
    frameRange: z
      .strictObject({ start: z.number().int().min(0), end: z.number().int().min(0) })
      .optional()
      .describe('Frames, inclusive (default: the whole composition)'),
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
    overflow: z
      .array(z.strictObject({ dir: AbsPath, minFreeBytes: z.number().int().min(0).optional() }))
      .optional()
      .describe('Directories to continue a sequence in when the output volume is full'),
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
  }),
  pathParams: { output: 'write', 'overflow[].dir': 'write' },
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    // The same rules hold every item of a project file (project.open) and every item a render plans.
    const checked = checkRenderItem(p, comp);
    if (!checked.ok) throw new EngineError(checked.code, checked.message, checked.remediation);
    const { format } = checked;
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
        overflow: (p.overflow ?? []).map((o) => ({ dir: o.dir, minFreeBytes: o.minFreeBytes ?? 0 })),
        alpha: p.alpha ?? false,
        audio: p.audio ?? true,
      };
      d.renderQueue.push(item);
    });
    return { id, format };
  },
});

const renderQueueRemove = defineCommand({
  id: 'renderQueue.remove',
  title: 'Remove from Render Queue',
  category: 'Render',
  description:
    "Removes an item from the render queue. An item removed while rendering is left out of the job's result and counted as failed.",
  params: z.strictObject({ id: z.string().min(1) }),
  pathParams: {},
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    if (!ctx.doc.renderQueue.some((q) => q.id === p.id)) {
      throw new EngineError(
        'not_found',
        `No render queue item "${p.id}". Items: ${ctx.doc.renderQueue.map((q) => q.id).join(', ') || 'none'}.`,
        'Pass an id from renderQueue.list.',
      );
    }
    ctx.update((d) => void (d.renderQueue = d.renderQueue.filter((q) => q.id !== p.id)));
    return { id: p.id, removed: true };
  },
});

const renderQueueClear = defineCommand({
  id: 'renderQueue.clear',
  title: 'Clear Render Queue',
  category: 'Render',
  description: 'Removes every item from the render queue.',
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

/** renderQueue.list merges the document's items with live statuses from the render service. */
function renderQueueList(statusOf: StatusSource) {
  return defineCommand({
    id: 'renderQueue.list',
    title: 'List Render Queue',
    category: 'Render',
    description:
      'Lists queue items (comp, output, format, alpha, frame range, ...) with status (queued, rendering, done, failed, stopped), frames done/total, files written and error.',
    params: z.strictObject({}),
    pathParams: {},
    annotations: READ_ONLY,
    mutates: false,
    run(ctx) {
      const items = ctx.doc.renderQueue.map((q) => {
        const comp = ctx.doc.items.find((i) => i.id === q.comp);
        const span = frameSpan(q, comp?.type === 'composition' ? comp : undefined);
        const total = span ? span.end - span.start + 1 : 0;
        return {
          ...q,
          ...(statusOf(q.id) ?? { status: 'queued', framesDone: 0, framesTotal: total, files: 0 }),
        };
      });
      return { items };
    },
  });
}

/** The item commands; `statusOf` gives renderQueue.list live statuses (default: every item reads as queued). */
export function queueItemCommands(statusOf: StatusSource = () => undefined): AnyCommand[] {
  return [renderQueueAdd, renderQueueRemove, renderQueueClear, renderQueueList(statusOf)] as AnyCommand[];
}
