/** renderQueue.render and renderQueue.stop: the commands that run and stop a session's RenderQueueService. */
import { z } from 'zod';
import {
  defineCommand,
  EngineError,
  fillItemOutput,
  footageProps,
  type AnyCommand,
  type Project,
  type RenderQueueItem,
} from '../../../engine/index.js';
import { footagePaths } from '../../reachable-footage.js';
import { refuseInstalledPackageOutputs } from '../installed-package.js';
import { carriesSound } from '../plan.js';
import { findItem } from './items.js';
import type { RenderQueueService } from '../service.js';

const RenderParams = z.strictObject({
  wait: z
    .boolean()
    .optional()
    .describe(
      'true (default): return when the job ends; false: return the ids at once and poll renderQueue.list',
    ),
  items: z.array(z.string().min(1)).optional().describe('Render only these queue item ids (default: all)'),
  resume: z
    .boolean()
    .optional()
    .describe(
      "true: a resumable render, as aerender's: frames (and one-file outputs) that exist are skipped, and a stopped or failed item keeps the frames it completed, so rendering again with resume:true continues. Default false: a stopped item's files are removed exactly and earlier files it replaced are put back",
    ),
  detail: z
    .enum(['compact', 'files'])
    .optional()
    .describe(
      'How much the result says per item. "compact" (default): status, frame counts, first and last file, total bytes and the path of the manifest (a JSON file beside the output listing every file with its size and sha256). "files": also sha256, every file with its hash (large: one entry per frame)',
    ),
});

function selected(doc: Project, ids: string[] | undefined): RenderQueueItem[] {
  if (!ids) return [...doc.renderQueue];
  // An id given twice is one item rendered once (a second pass would refuse to write over the first's files).
  return [...new Set(ids)].map((id) => findItem(doc.renderQueue, id));
}

/** The job commands, bound to one service. */
export function jobCommands(service: RenderQueueService): AnyCommand[] {
  const render = defineCommand({
    id: 'renderQueue.render',
    title: 'Render Queue',
    category: 'Render',
    description: `Renders every item in the queue (items: only those ids), done ones again (their files are replaced), from a snapshot of the document (edits during the render do not affect it). One job at a time: a second render is refused with render_in_progress. resume:true makes it resumable (existing frames skipped, completed frames kept on stop). Outputs inside node_modules (an installed package, such as its sample project) are refused. wait:false returns the ids at once; poll renderQueue.list and stop with renderQueue.stop. The result is compact: per item its status, frames, files (first/last/count), total bytes and manifest (a JSON file beside the output with every file's size and sha256); detail:"files" adds every file's sha256 to the result.`,
    example: { wait: false },
    params: RenderParams,
    pathParams: {},
    writesFiles: (view, p) =>
      safe(() =>
        selected(view.doc, p.items).flatMap((q) => [
          withFilledOutput(view.doc, q).output,
          ...q.overflow.map((o) => o.dir),
        ]),
      ),
    readsFiles: (view, p) =>
      safe(() => {
        const items = selected(view.doc, p.items);
        // A footage prop's file is read too (template-doc.ts probes and the workers decode it).
        // Sound files only for items that carry sound (a picture-only format, or audio: false, never reads them).
        const footage = items.flatMap((q) => footagePaths(view.doc, [q.comp], { sound: carriesSound(q) }));
        return [...new Set(footage), ...items.flatMap((q) => propFootage(view.doc, q))];
      }),
    enabled: (view) =>
      view.doc.renderQueue.length ? null : 'The render queue is empty: add an item with renderQueue.add.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    // Not `mutates`: edits must keep working while a job renders its snapshot.
    mutates: false,
    traits: { longRunning: true, backgroundJob: { waitParam: 'wait' }, detachesFromCallOrder: true },
    async run(ctx, p) {
      const doc = ctx.doc;
      const items = selected(doc, p.items).map((q) => withFilledOutput(doc, q));
      refuseInstalledPackageOutputs(items);
      const job = service.start(doc, items, ctx.ports, {
        resume: p.resume ?? false,
        ...(p.detail && { detail: p.detail }),
      });
      if (p.wait === false) return { started: true, ids: job.ids };
      let last = -1;
      const off = service.onProgress((e) => {
        // An item's end repeats its last figures: no progress.
        if (e.status) return;
        const value = e.itemsDone + (e.framesTotal ? e.framesDone / e.framesTotal : 0);
        // Progress must strictly increase (MCP); repeated values are dropped.
        if (value <= last) return;
        last = value;
        ctx.progress({
          progress: value,
          total: e.itemsTotal,
          message: `${e.itemId}: frame ${e.framesDone}/${e.framesTotal}, item ${e.itemsDone + 1}/${e.itemsTotal}`,
        });
      });
      const onAbort = () => service.stop();
      ctx.signal.addEventListener('abort', onAbort);
      if (ctx.signal.aborted) service.stop();
      try {
        return await job.done;
      } finally {
        off();
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
  });

  const stop = defineCommand({
    id: 'renderQueue.stop',
    title: 'Stop Render',
    category: 'Render',
    description:
      'Stops the running render job: files of the unfinished item are removed (with renderQueue.render resume:true its completed frames stay), earlier files it replaced are put back, finished items and skipped frames stay.',
    example: {},
    params: z.strictObject({}),
    pathParams: {},
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    mutates: false,
    async run() {
      const stopped = service.stop();
      if (!stopped) return { stopped, message: 'No render is running: there was nothing to stop.' };
      await service.idle();
      return { stopped };
    },
  });
  return [render, stop] as AnyCommand[];
}

/**
 * The item as it renders: `{field}`s in its output filled from its props, else its composition's inputs'
 * defaults, as the CLI fills them (templates.md); a project saved with `out/{name}.mp4` wrote a file named
 * `{name}.mp4` when rendered here. A field nothing fills is refused before anything renders.
 */
function withFilledOutput(doc: Project, item: RenderQueueItem): RenderQueueItem {
  const filled = fillItemOutput(doc, item, item.props ?? {});
  if (filled.ok) return filled.output === null ? item : { ...item, output: filled.output };
  const { field } = filled;
  throw new EngineError(
    'bad_argument',
    filled.message
      ? `Item "${item.id}" writes to "${item.output}": ${filled.message}.`
      : `Item "${item.id}" writes to "${item.output}", whose {${field}} no input of its composition and no prop of the item fills.`,
    `Give the item a "${field}" prop (renderQueue.update {id: "${item.id}", props: {"${field}": ...}}), or an output without {${field}}.`,
  );
}

function propFootage(doc: Project, item: RenderQueueItem): string[] {
  const comp = doc.items.find((i) => i.id === item.comp);
  return item.props && comp?.type === 'composition' ? footageProps(comp, item.props) : [];
}

// A declaration must not throw (it runs before the command); the command itself reports bad ids.
function safe(fn: () => string[]): string[] {
  try {
    return fn();
  } catch {
    return [];
  }
}
