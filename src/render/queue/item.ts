/**
 * Renders one queue item: plan frames, ask the exporter which to skip, read footage through the engine's
 * ports, hand contiguous batches to worker threads (p-queue, AbortSignal-aware), write frames through the
 * exporter, and on failure or cancellation kill the encoder and remove exactly the files it tracked.
 */
import PQueue from 'p-queue';
import {
  EngineError,
  fsError,
  type EnginePorts,
  type ErrorInfo,
  type Project,
  type RenderQueueItem,
} from '../../engine/index.js';
import type { FramePayload } from '../encode.js';
import type { ExporterRegistry, OutputFile } from './exporters/types.js';
import { footagePaths } from './footage.js';
import type { JobOptions } from './options.js';
import { planItem, type ItemPlan } from './plan.js';
import { RenderPool } from './pool.js';
import { FileTracker } from './tracker.js';
import { FrameWriter } from './writer.js';

export interface ItemEnv {
  doc: Project;
  ports: EnginePorts;
  signal: AbortSignal;
  exporters: ExporterRegistry;
  options: JobOptions;
  /** true once the item is no longer in the live document's queue: it is stopped and its files removed. */
  removed(): boolean;
  /** Frames written so far (including skipped) out of the item's total, and files completed. */
  onFrames(done: number, total: number, files: number): void;
}

export interface ItemOutcome {
  status: 'done' | 'failed' | 'stopped';
  frames: number;
  skipped: number;
  files: OutputFile[];
  error?: ErrorInfo;
}

const stopped = () => new EngineError('cancelled', 'The render was stopped.', 'Render again to finish it.');

/** Why an item removed from the queue during the job has no output. */
export function removedError(id: string): ErrorInfo {
  return new EngineError(
    'not_found',
    `Queue item "${id}" was removed during the render; it was not rendered (its unfinished files were removed).`,
    'Add it to the render queue again and render to get its output.',
  ).toInfo();
}

// How often the live queue is checked for removal of the item being rendered (besides every frame batch).
const REMOVAL_POLL_MS = 100;

/** Errors as clients see them: raw Node fs errors (EROFS, EACCES, ENOSPC...) get fsError's words and remedy. */
export function toInfo(err: unknown, output: string): ErrorInfo {
  if (err instanceof EngineError) return err.toInfo();
  const errno = err as NodeJS.ErrnoException | undefined;
  if (typeof errno?.code === 'string' && typeof errno.syscall === 'string') {
    if (errno.code === 'EROFS')
      return new EngineError(
        'io_error',
        `Cannot write "${errno.path ?? output}": the volume is read-only.`,
        'Write to a writable volume (or remount this one read-write).',
      ).toInfo();
    return fsError(err, errno.path ?? output, 'write').toInfo();
  }
  return {
    code: 'render_failed',
    message: `Rendering failed: ${err instanceof Error ? err.message : String(err)}`,
    remediation: 'Render again; if it keeps failing, check the output folder and the composition.',
  };
}

export async function renderItem(item: RenderQueueItem, env: ItemEnv): Promise<ItemOutcome> {
  const tracker = new FileTracker(env.options.openWriteDir);
  let exporter: ReturnType<NonNullable<ReturnType<ExporterRegistry['get']>>> | undefined;
  let pool: RenderPool | undefined;
  let skipped = 0;
  let writer: FrameWriter | undefined;
  // The item stops when the job stops, or when the item is removed from the live queue (it is not wanted).
  const local = new AbortController();
  const signal = local.signal;
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
  if (env.signal.aborted) local.abort();
  const poll = setInterval(checkRemoved, REMOVAL_POLL_MS);
  poll.unref();
  const onAbort = () => void pool?.destroy();
  signal.addEventListener('abort', onAbort);
  try {
    const plan = planItem(env.doc, item);
    const { frames } = plan;
    const factory = env.exporters.get(item.format);
    if (!factory)
      throw new EngineError(
        'unsupported_format',
        `No exporter for "${item.format}".`,
        'Pick another format.',
      );
    exporter = factory({ item, frames, frameRate: plan.frameRate, tracker, ffmpeg: env.options.ffmpeg });
    const skip = await exporter.prepare();
    const todo = frames.filter((f) => !skip.has(f));
    skipped = frames.length - todo.length;
    env.onFrames(skipped, frames.length, 0);
    const w = new FrameWriter(exporter, todo, (n) =>
      env.onFrames(skipped + n, frames.length, tracker.committed),
    );
    writer = w;
    if (todo.length) {
      if (checkRemoved() || signal.aborted) throw stopped();
      const footage: Array<[string, Uint8Array]> = [];
      for (const path of footagePaths(env.doc, [item.comp])) {
        // Read through the engine's ports so confinement applies; workers only ever see bytes.
        const bytes = await env.ports.readFile(path).catch((err: unknown) => {
          throw err instanceof EngineError ? err : fsError(err, path, 'read footage');
        });
        footage.push([path, bytes]);
      }
      pool = await RenderPool.start({
        workers: Math.max(1, Math.min(env.options.maxWorkers, todo.length)),
        workerUrl: env.options.workerUrl,
        init: { doc: env.doc, footage, rendererModule: env.options.rendererModule },
      });
      if (checkRemoved() || signal.aborted) throw stopped();
      await dispatch(pool, w, todo, plan, exporter.payload, exporter.ordered, signal, checkRemoved);
    }
    await w.flush();
    if (checkRemoved()) throw stopped();
    const files = await exporter.finish();
    // Removed while the encoder finished: the tracker still owns the final files, so they go too.
    if (checkRemoved()) throw stopped();
    await tracker.release();
    return { status: 'done', frames: todo.length, skipped, files };
  } catch (err) {
    writer?.close();
    await pool?.destroy();
    await exporter?.abort().catch(() => undefined);
    await writer?.flush().catch(() => undefined);
    await tracker.removeAll();
    const cancelled = env.signal.aborted && !removed;
    return {
      status: cancelled ? 'stopped' : 'failed',
      frames: 0,
      skipped,
      files: [],
      error: removed ? removedError(item.id) : cancelled ? stopped().toInfo() : toInfo(err, item.output),
    };
  } finally {
    clearInterval(poll);
    env.signal.removeEventListener('abort', onJobAbort);
    signal.removeEventListener('abort', onAbort);
    await pool?.destroy();
  }
}

async function dispatch(
  pool: RenderPool,
  writer: FrameWriter,
  todo: number[],
  plan: ItemPlan,
  payload: FramePayload,
  ordered: boolean,
  signal: AbortSignal,
  checkRemoved: () => boolean,
): Promise<void> {
  // Raw frames are large (8 MB at 1080p): smaller batches and a tight window keep memory flat for video.
  const batchSize = payload.kind === 'rgba' ? 2 : Math.min(8, Math.ceil(todo.length / (pool.size * 4)));
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
    if (checkRemoved() || signal.aborted) throw stopped();
    const task = queue
      .add(
        () =>
          pool.run(
            { compId: plan.item.comp, frameRate: plan.frameRate, frames, ...plan.render, payload },
            (f, d, wdt, h) => writer.push(f, d, { width: wdt, height: h }),
          ),
        { signal },
      )
      .catch((err: unknown) => {
        failure ??= err;
        wake();
      });
    tasks.push(task);
  }
  await Promise.all(tasks);
  if (signal.aborted) throw stopped();
  if (failure) throw failure;
  if (writer.error) throw writer.error;
}
