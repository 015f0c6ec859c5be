/**
 * Renders one queue item: plan its frames, ask the exporter which to skip, read footage through the engine's
 * ports, hand contiguous batches to worker threads (p-queue, AbortSignal-aware) and write frames through the
 * exporter. Everything it acquires registers its release on one CleanupStack, drained in `finally`: on
 * failure or cancellation the encoder is killed and exactly the files it tracked are removed.
 */
import PQueue from 'p-queue';
import {
  EngineError,
  formatSpec,
  type EnginePorts,
  type ErrorInfo,
  type Project,
  type RenderQueueItem,
} from '../../engine/index.js';
import { isRawPayload } from '../payload.js';
import { CleanupStack } from './cleanup.js';
import { removedError, stopped, stoppedKeeping, toInfo } from './item-errors.js';
import type { Exporter, ExporterRegistry, OutputFile } from './exporters/types.js';
import { footageInput } from './footage-input.js';
import { refuseGoneFootage } from './gone-footage.js';
import { refuseLinkedOverwrite } from './output-links.js';
import { soundInput } from './sound-input.js';
import { feederWorkers, type JobOptions } from './options.js';
import { planItem, type ItemPlan } from './plan.js';
import { templateDoc } from './template-doc.js';
import { RenderPool } from './pool.js';
import { FileTracker, type KeptAside } from './tracker.js';
import { reclaimItemTemporaries } from './item-temporaries.js';
import { missingGlyphsWarnings } from './missing-glyphs.js';
import { silentMixWarning } from './silent-mix.js';
import { uncheckedFootageWarning } from './unchecked-footage.js';
import { FrameWriter } from './writer.js';

export interface ItemEnv {
  doc: Project;
  ports: EnginePorts;
  signal: AbortSignal;
  exporters: ExporterRegistry;
  options: JobOptions;
  /** Resumable render: an item that stops short keeps its complete files (see FileTracker.keepCompleted). */
  resume: boolean;
  /** true once the item is no longer in the live document's queue: it is stopped and its files removed. */
  removed(): boolean;
  /** Frames written so far (including skipped) out of the item's total, and files completed. */
  onFrames(done: number, total: number, files: number): void;
  /**
   * Earlier files the item replaces are kept aside past its completion and handed here, not deleted: a
   * distributed chunk's render may still be stopped after the chunk completes (then they are put back).
   */
  keepAside?: KeptAside;
  /** The files earlier items of the same render wrote: the item may not write over them (output-overlap.ts). */
  written?: ReadonlySet<string>;
  /**
   * Removes the temporaries of its outputs that killed renders left (item-temporaries.ts). Local renders only:
   * a distributed chunk's folder has other chunks' live files, which their assembly cleans up.
   */
  reclaimStale?: boolean;
}

export interface ItemOutcome {
  status: 'done' | 'failed' | 'stopped';
  frames: number;
  skipped: number;
  files: OutputFile[];
  error?: ErrorInfo;
  /** What the item did not do that a reader would assume it did (footage not checked: unchecked-footage.ts). */
  warnings?: string[];
}

// How often the live queue is checked for removal of the item being rendered (besides every frame batch).
const REMOVAL_POLL_MS = 100;

/** The item's own stop: the job stopping, or the item leaving the live queue (its output is not wanted). */
interface ItemStop {
  readonly signal: AbortSignal;
  /** Checks the live queue now; true once the item was removed. */
  checkRemoved(): boolean;
  readonly removed: boolean;
}

function itemStop(env: ItemEnv, cleanup: CleanupStack): ItemStop {
  const local = new AbortController();
  let removed = false;
  const checkRemoved = () => {
    if (!removed && !local.signal.aborted && env.removed()) {
      removed = true;
      local.abort();
    }
    return removed;
  };
  const onJobAbort = () => local.abort();
  env.signal.addEventListener('abort', onJobAbort);
  cleanup.always(() => env.signal.removeEventListener('abort', onJobAbort));
  if (env.signal.aborted) local.abort();
  const poll = setInterval(checkRemoved, REMOVAL_POLL_MS);
  poll.unref();
  cleanup.always(() => clearInterval(poll));
  return {
    signal: local.signal,
    checkRemoved,
    get removed() {
      return removed;
    },
  };
}

export async function renderItem(item: RenderQueueItem, env: ItemEnv): Promise<ItemOutcome> {
  const cleanup = new CleanupStack();
  const tracker = new FileTracker(env.options.openWriteDir, env.keepAside);
  // Registered first, so it runs last: once the encoder is dead and no write is in flight. A removed item's
  // output is not wanted, resumable or not.
  let kept: OutputFile[] = [];
  cleanup.onFailure(async () => {
    if (env.resume && !stop.removed) kept = await tracker.keepCompleted();
    else await tracker.removeAll();
  });
  const stop = itemStop(env, cleanup);
  const counts = { skipped: 0 };
  let outcome: ItemOutcome | undefined;
  let failure: unknown;
  // What a footage prop's import left out (a sequence cut short): until 2026-12-07 such an item ended done
  // without a word, its frames past the cut showing nothing.
  const propWarnings: string[] = [];
  try {
    // Props apply to this item's copy of the snapshot: the job's document and the live one never change.
    const doc = await templateDoc(env.doc, item, env.ports, (w) => propWarnings.push(w));
    outcome = await render(planItem(doc, item, env.written), { ...env, doc }, tracker, cleanup, stop, counts);
    if (propWarnings.length) outcome.warnings = [...propWarnings, ...(outcome.warnings ?? [])];
  } catch (err) {
    failure = err;
  } finally {
    await cleanup.drain(outcome === undefined);
  }
  if (outcome) return outcome;
  const cancelled = env.signal.aborted && !stop.removed;
  return {
    status: cancelled ? 'stopped' : 'failed',
    // A resumable render keeps the frame files it completed (a video is one file, complete only when done):
    // they are the frames it rendered, which the next run skips.
    frames: kept.length,
    skipped: counts.skipped,
    files: kept,
    error: stop.removed
      ? removedError(item.id)
      : cancelled
        ? (env.resume
            ? stoppedKeeping(kept.length, formatSpec(item.format).kind === 'file')
            : stopped()
          ).toInfo()
        : toInfo(failure, item.output, env.options.words),
  };
}

async function render(
  plan: ItemPlan,
  env: ItemEnv,
  tracker: FileTracker,
  cleanup: CleanupStack,
  stop: ItemStop,
  counts: { skipped: number },
): Promise<ItemOutcome> {
  const { item, frames } = plan;
  const factory = env.exporters.get(item.format);
  if (!factory)
    throw new EngineError('unsupported_format', `No exporter for "${item.format}".`, 'Pick another format.');
  await refuseGoneFootage(env.doc, item.comp, env.ports, plan);
  // planItem compared the paths as spelt; a linked folder can still lead the output onto a footage file or
  // an earlier item's file.
  await refuseLinkedOverwrite(env.doc, item, { start: frames[0]!, end: frames.at(-1)! }, env.written);
  if (env.reclaimStale) await reclaimItemTemporaries(item, tracker);
  const sound = plan.sound
    ? await soundInput(env.doc, plan, env.ports, env.options.ffmpeg, (close) => cleanup.always(close))
    : null;
  const exporter = factory({
    item,
    frames,
    frameRate: plan.frameRate,
    frameSize: plan.frameSize,
    tracker,
    ffmpeg: env.options.ffmpeg,
    signal: stop.signal,
    audio: sound?.mix ?? null,
    progress: (n) => env.onFrames(counts.skipped + n, frames.length, tracker.committed),
  });
  // Set once the frames to write are known (after prepare); the cleanup below may run before that.
  let writer: FrameWriter | undefined = undefined;
  // Kill the encoder (ffmpeg) before waiting for the writes in flight: a write blocked on its pipe then fails
  // at once, and the tracker sees every file that will ever be written before it removes them.
  cleanup.onFailure(async () => {
    await exporter.abort().catch(() => undefined);
    await writer?.flush().catch(() => undefined);
  });
  const skip = await exporter.prepare();
  // Without skipped frames the item's own list serves (no copy of a day-long composition's frames).
  const todo = skip === 'all' || !plan.picture ? [] : skip.size ? frames.filter((f) => !skip.has(f)) : frames;
  counts.skipped = skip === 'all' ? frames.length : plan.picture ? frames.length - todo.length : 0;
  env.onFrames(counts.skipped, frames.length, 0);
  const w = new FrameWriter(exporter, todo, (n) =>
    env.onFrames(counts.skipped + n, frames.length, tracker.committed),
  );
  writer = w;
  // A stopped or failed item accepts no more frames.
  cleanup.onFailure(() => w.close());
  if (todo.length) {
    if (stop.checkRemoved() || stop.signal.aborted) throw stopped();
    const input = await footageInput(
      env.doc,
      item.comp,
      env.ports,
      env.options.ffmpeg,
      stop.signal,
      (close) => cleanup.always(close),
    );
    // The video files' check and the sound files' (sound-input.ts) run while the workers start.
    const checked = Promise.all([input.checked, sound?.checked]).then(() => undefined);
    checked.catch(() => undefined);
    const pool = await startAlongside(
      () =>
        RenderPool.start({
          workers: workerCount(exporter, env.options.maxWorkers, todo.length),
          workerUrl: env.options.workerUrl,
          init: {
            doc: env.doc,
            footage: input.footage,
            media: input.media,
            rendererModule: env.options.rendererModule,
            niceness: workerNiceness(exporter),
          },
          readSequenceFrame: input.readSequenceFrame,
        }),
      exporter,
      stop,
      cleanup,
      checked,
      w,
    );
    // Stopping terminates the workers at once; the batch they held rejects with `cancelled`.
    const onAbort = () => void pool.destroy();
    stop.signal.addEventListener('abort', onAbort);
    cleanup.always(() => stop.signal.removeEventListener('abort', onAbort));
    if (stop.checkRemoved() || stop.signal.aborted) throw stopped();
    // A file that changed since its import fails the check; its frames may have failed to decode meanwhile,
    // and the check's error is the one that names the cause.
    await dispatch(pool, w, todo, plan, exporter, stop).catch(async (err: unknown) => {
      await checked;
      throw err;
    });
    // Every frame is drawn: the workers end their job while the encoder finishes, and wait for the next
    // render (warm-workers.ts). The cleanup's `destroy` then waits for this same end.
    void pool.release();
  }
  await w.flush();
  // An item with no frames to draw (sound only, or every frame kept from before) waited for no check yet.
  await sound?.checked;
  if (stop.checkRemoved() || stop.signal.aborted) throw stopped();
  const files = await finishStoppably(exporter, stop);
  // Removed while the encoder finished: the tracker still owns the final files, so they go too.
  if (stop.checkRemoved()) throw stopped();
  if (env.reclaimStale) await reclaimItemTemporaries(item, tracker);
  const replaced = replacedWarning(await tracker.replaced());
  // The files are the item's output now: cleanup of this or a later item no longer removes them.
  await tracker.release();
  // An audio-only item renders no picture; its frames are the span its sound covers (progress followed its
  // ffmpeg's report), all done once the file is written.
  const done = plan.picture ? todo.length : frames.length - counts.skipped;
  if (!plan.picture) env.onFrames(frames.length, frames.length, tracker.committed);
  const unchecked = await uncheckedFootageWarning(env.doc, item.comp, env.options.ffmpeg, plan.sound);
  const silent = silentMixWarning(env.doc, plan, sound?.mix ?? null);
  const warnings = [
    ...(exporter.warnings?.() ?? []),
    ...[unchecked, silent, replaced].filter((w) => w !== null),
    ...(plan.picture ? missingGlyphsWarnings(env.doc, item.comp) : []),
  ];
  return {
    status: 'done',
    frames: done,
    skipped: counts.skipped,
    files,
    ...(warnings.length && { warnings }),
  };
}

/**
 * Files this item wrote that another program replaced while it rendered (two renders of one output at once: each
 * ended done, its manifest listing files the other had since written over), or null.
 */
function replacedWarning(paths: string[]): string | null {
  if (!paths.length) return null;
  const shown = paths
    .slice(0, 3)
    .map((p) => `"${p}"`)
    .join(', ');
  const more = paths.length > 3 ? ` and ${paths.length - 3} more` : '';
  return (
    `${paths.length} of the files this item wrote (${shown}${more}) were replaced or removed by another program ` +
    'while it rendered, most likely another render to the same output: they no longer hold what this render ' +
    'wrote, and its manifest lists what it wrote. Give each render its own output, and render this item again.'
  );
}

/**
 * The exporter's finish, ended at once by a stop: it may be all of an item's work (an audio-only item mixes its
 * whole sound there: minutes for an hour of it), or a video encoder's last seconds. The exporter is aborted
 * (its ffmpeg killed), so its finish fails, and the item ends stopped with its files removed.
 */
async function finishStoppably(exporter: Exporter, stop: ItemStop): Promise<OutputFile[]> {
  const onStop = () => void exporter.abort().catch(() => undefined);
  stop.signal.addEventListener('abort', onStop);
  try {
    return await exporter.finish();
  } catch (err) {
    throw stop.signal.aborted ? stopped() : err;
  } finally {
    stop.signal.removeEventListener('abort', onStop);
  }
}

/**
 * Starts the render workers while the exporter prepares (`begin`: a video's encoder) and the footage is
 * checked (`checked`), and returns as soon as the workers are ready: the first frames are rendered while the
 * other two finish, and the writer holds them until both have (the first frame no longer waits for all three).
 * A failure of either is the item's error before anything is written; the footage check's names what changed,
 * so it wins over the encoder's. A stop aborts the exporter at once, which ends its `begin`; a failure waits
 * for `begin` to end (the writer's flush) before the item's files are removed, so none it creates is left.
 */
async function startAlongside(
  startPool: () => Promise<RenderPool>,
  exporter: Exporter,
  stop: ItemStop,
  cleanup: CleanupStack,
  checked: Promise<void>,
  writer: FrameWriter,
): Promise<RenderPool> {
  // A stop before this point (while the footage was opened) has no listener to hear it.
  if (stop.checkRemoved() || stop.signal.aborted) throw stopped();
  const onStop = () => void exporter.abort().catch(() => undefined);
  stop.signal.addEventListener('abort', onStop);
  cleanup.always(() => stop.signal.removeEventListener('abort', onStop));
  const begun = exporter.begin?.() ?? Promise.resolve();
  begun.catch(() => undefined);
  // The writer's flush, which the item's failure awaits after aborting the exporter, waits for this too.
  writer.holdUntil(checked.then(() => begun));
  const pool = await startPool();
  cleanup.always(() => pool.destroy());
  if (stop.checkRemoved() || stop.signal.aborted) throw stopped();
  return pool;
}

/**
 * Render workers for an item: one per core, capped by the frames. A streaming encoder (ffmpeg's libx264 at
 * 1080p keeps about 1.6 cores busy) gets half the cores: on 2 cores one worker keeps it fed, and a second only
 * takes CPU from it (measured: 18 fps with one worker, 15 with two, for 1080p footage to MP4), adds a second
 * decoder of every clip (each worker reads its own frames in order) and the memory of both.
 */
function workerCount(exporter: Exporter, maxWorkers: number, frames: number): number {
  const cap = isRawPayload(exporter.payload) ? feederWorkers() : maxWorkers;
  return Math.max(1, Math.min(maxWorkers, cap, frames));
}

/**
 * How far below the encoder child the render workers (and the decoders they start) run, when they feed one:
 * the encoder is the bottleneck of such a render, and every moment it waits behind frames that are already
 * ahead of it is lost; at a lower priority the workers take the CPU the encoder leaves idle (x264's threads
 * wait on each other) and still get all of it whenever the encoder waits for them (docs/exporters.md, "The
 * job"; measured in docs/rendering.md, "Benchmark"). Other outputs are encoded by the workers themselves.
 */
const FEEDER_NICENESS = 10;

function workerNiceness(exporter: Exporter): number {
  return isRawPayload(exporter.payload) ? FEEDER_NICENESS : 0;
}

async function dispatch(
  pool: RenderPool,
  writer: FrameWriter,
  todo: number[],
  plan: ItemPlan,
  exporter: Exporter,
  stop: ItemStop,
): Promise<void> {
  const { payload, ordered } = exporter;
  // Raw frames are large (8 MB at 1080p): single-frame batches and a tight window keep memory flat for video
  // (batches of 2 held about 25 MB more at the 1080p MP4 benchmark's peak, at the same speed).
  const batchSize = isRawPayload(payload) ? 1 : Math.min(8, Math.ceil(todo.length / (pool.size * 4)));
  const window = pool.size * batchSize * 2;
  const queue = new PQueue({ concurrency: pool.size });
  let failure: unknown = null;
  let wake: () => void = () => undefined;
  const failed = new Promise<void>((resolve) => (wake = resolve));
  const tasks: Promise<void>[] = [];
  for (let i = 0; i < todo.length && !failure; i += batchSize) {
    const frames = todo.slice(i, i + batchSize);
    // Bounded frames in flight: wait for earlier frames to be written before rendering more.
    if (ordered) await Promise.race([writer.waitUntilWritten(i + frames.length - window), failed]);
    else await Promise.race([queue.onSizeLessThan(pool.size), failed]);
    if (failure || writer.error) break;
    if (stop.checkRemoved() || stop.signal.aborted) throw stopped();
    const task = queue
      .add(
        () =>
          pool.run(
            { compId: plan.item.comp, frameRate: plan.frameRate, frames, ...plan.render, payload },
            // Raw frames' buffers go back to their worker for its next frames (encoded ones vary in size).
            (f, d, wdt, h, release) =>
              writer.push(f, d, { width: wdt, height: h }, isRawPayload(payload) ? release : undefined),
          ),
        { signal: stop.signal },
      )
      .catch((err: unknown) => {
        failure ??= err;
        wake();
      });
    tasks.push(task);
  }
  await Promise.all(tasks);
  if (stop.signal.aborted) throw stopped();
  if (failure) throw failure;
  if (writer.error) throw writer.error;
}
