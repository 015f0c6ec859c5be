/**
 * The coordinator of a distributed render (`render PROJECT --redis URL`, and the render queue of `mcp --redis
 * URL`): each item becomes one BullMQ flow, a parent "assemble" job over one child job per chunk of frames,
 * rendered by whichever `worker --redis` takes it. Items go one after another, as in a local job; the workers'
 * progress events are summed into the same JobProgress the local render reports, and the outcomes are those of
 * a local job.
 */
import { randomUUID } from 'node:crypto';
import { rmdir, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FlowProducer, Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  EngineError,
  type ErrorInfo,
  type Project,
  type Remedy,
  type RenderQueueItem,
} from '../../engine/index.js';
import type { OutputFile } from '../queue/exporters/types.js';
import {
  finalStatus,
  reportItem,
  type JobItemOutcome,
  type JobProgress,
  type ReportDetail,
} from '../queue/job.js';
import { removedError } from '../queue/item-errors.js';
import { frameSpan, framesOf, planItem } from '../queue/plan.js';
import type { JobResult } from '../queue/service.js';
import type { ItemStatus } from '../queue/status.js';
import { broadcastCancel } from './cancel.js';
import { chunkSpans, segmentPath, splitOf, type Split } from './chunks.js';
import { assertRedisReachable, commandClient, coordinatorOptions, watchRedis } from './connection.js';
import { watchFlow } from './flow-watch.js';
import { undoChunk } from './kept.js';
import { holdLease, LEASE_LAPSED } from './lease.js';
import { dropDoc, putDoc } from './shared-doc.js';
import {
  AssembleResult,
  ChunkProgress,
  ChunkResult,
  decodeFailure,
  JOB,
  QUEUE_NAME,
  type AssembleData,
  type ChunkData,
  type JobRoots,
} from './protocol.js';
import { retryOptions } from './retry.js';

export interface DistributedRenderOptions {
  url: string;
  /** The package version: workers of another version refuse the jobs. */
  version: string;
  chunkSize: number;
  /** Tries of a chunk that fails with a transient error (retry.ts), and the first retry's delay in ms. */
  attempts: number;
  backoffMs: number;
  signal: AbortSignal;
  detail: ReportDetail;
  onProgress(p: JobProgress): void;
  /** Live status of each item (the MCP server's renderQueue.list). */
  setStatus?(id: string, status: ItemStatus): void;
  /** Whether an item is still in the live queue: one removed before its turn is not sent (as locally). */
  isQueued?(id: string): boolean;
  /** A confined coordinator's roots: workers open outputs and footage through them. Default: not confined. */
  roots?: JobRoots | null;
  /** What to do when Redis cannot be reached, in the words of the surface given the URL. */
  unreachableRemedy?: Remedy;
  /** Told when the render has waited NO_WORKER_NOTICE_MS with no worker listening (a log line, not an error). */
  onNotice?(message: string): void;
}

/** How long a render waits with no worker listening before it says so. */
export const NO_WORKER_NOTICE_MS = 10_000;

/**
 * Says, once until one comes, that no worker is listening: the jobs wait in Redis for a worker as long as it
 * takes, and a render started before its workers (or with none) showed "0.0 fps" and nothing else, for ever.
 */
function watchForWorkers(queue: Queue, url: string, notice?: (message: string) => void): () => void {
  if (!notice) return () => undefined;
  let told = false;
  const timer = setInterval(() => {
    void queue.getWorkersCount().then(
      (n) => {
        if (n > 0) told = false;
        if (n > 0 || told) return;
        told = true;
        notice(
          `No worker is listening on ${url}: the render waits for one. Start \`effectcraft-cli worker --redis ${url}\` on a machine that reaches the footage and the outputs at the same paths.`,
        );
      },
      () => undefined,
    );
  }, NO_WORKER_NOTICE_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The parts of BullMQ one render uses, closed together. */
interface Links {
  queue: Queue;
  flows: FlowProducer;
  events: QueueEvents;
  /** Plain commands: the cancel broadcast. */
  control: Redis;
}

/** Renders `items` of `doc` on the workers; throws not_configured when Redis cannot be reached. */
export async function renderDistributed(
  doc: Project,
  items: readonly RenderQueueItem[],
  options: DistributedRenderOptions,
): Promise<JobResult> {
  const outcomes = await renderItemsDistributed(doc, items, options);
  return {
    completed: outcomes.filter((o) => o.status === 'done').length,
    failed: outcomes.filter((o) => o.status === 'failed').length,
    stopped: outcomes.filter((o) => o.status === 'stopped').length,
    skipped_frames: outcomes.reduce((n, o) => n + o.skipped, 0),
    items: outcomes.map((o) => reportItem(o, options.detail)),
  };
}

/**
 * Renders `items` of `doc` on the workers, one after another, and returns each item's outcome, as a local job
 * does (the render queue service reports them); throws not_configured when Redis cannot be reached.
 */
export async function renderItemsDistributed(
  doc: Project,
  items: readonly RenderQueueItem[],
  options: Omit<DistributedRenderOptions, 'detail'>,
): Promise<JobItemOutcome[]> {
  await assertRedisReachable(options.url, options.unreachableRemedy);
  const connection = coordinatorOptions(options.url);
  const links: Links = {
    queue: new Queue(QUEUE_NAME, { connection }),
    flows: new FlowProducer({ connection }),
    // A blocking reader of the events stream: BullMQ wants it to wait for answers, not give up after one retry.
    events: new QueueEvents(QUEUE_NAME, { connection: { ...connection, maxRetriesPerRequest: null } }),
    control: commandClient(options.url),
  };
  for (const l of Object.values(links)) l.on('error', () => undefined);
  const watch = watchRedis(links.control);
  let lostError: ErrorInfo | undefined;
  const lost = watch.lost.then((cause) => (lostError = lostRedis(options, cause)));
  const renderId = randomUUID();
  const unwatch = watchForWorkers(links.queue, options.url, options.onNotice);
  // Held while this process renders: workers let go of a render whose coordinator died (lease.ts).
  const lease = await holdLease(links.control, renderId).catch(() => null);
  try {
    // Subscribed before any job is added: the stream is read from "now", and a fast chunk must not be missed.
    await links.events.waitUntilReady();
    const outcomes: JobItemOutcome[] = [];
    for (const [index, item] of items.entries()) {
      // Its count until its progress says otherwise: an item stopped before its turn still shows its frames.
      let framesTotal = framesOf(doc, item);
      let reached = 0;
      // Stored (renewed) per item, before its jobs: workers read the document by the render's id.
      const unstored = lostError
        ? null
        : await putDoc(links.control, renderId, doc).then(
            () => null,
            (err: Error) => lostRedis(options, err),
          );
      const rendered = lostError
        ? outcomeOf(item, 'failed', lostError)
        : unstored
          ? outcomeOf(item, 'failed', unstored)
          : options.isQueued?.(item.id) === false && !options.signal.aborted
            ? outcomeOf(item, 'failed', removedError(item.id))
            : await renderOne(doc, item, index, items.length, renderId, links, lost, {
                ...options,
                onProgress(p) {
                  framesTotal = p.framesTotal;
                  reached = p.framesDone;
                  options.setStatus?.(item.id, {
                    status: 'rendering',
                    framesDone: p.framesDone,
                    framesTotal,
                    files: 0,
                  });
                  options.onProgress(p);
                },
              });
      // Its chunks let go by the workers while this process was paused: said as that, not as a stop.
      const lapsed = rendered.status === 'failed' && rendered.error?.code === 'cancelled' && lease?.lapsed();
      const outcome = lapsed ? { ...rendered, error: { ...LEASE_LAPSED } } : rendered;
      options.setStatus?.(item.id, finalStatus(outcome, framesTotal, reached));
      outcomes.push(outcome);
    }
    return outcomes;
  } finally {
    unwatch();
    await lease?.release();
    await dropDoc(links.control, renderId).catch(() => undefined);
    watch.close();
    await Promise.allSettled([links.events.close(), links.flows.close(), links.queue.close()]);
    links.control.disconnect();
  }
}

/** The error of items that were rendering or waiting when Redis stopped answering. */
function lostRedis(
  options: Pick<DistributedRenderOptions, 'url' | 'unreachableRemedy'>,
  cause: Error,
): ErrorInfo {
  return new EngineError(
    'not_configured',
    `Lost Redis at ${options.url} during the render (${cause.message || 'no answer'}).`,
    options.unreachableRemedy ??
      'Start Redis again if it is down, then render again. Chunks that completed before it went away may have left files: frames at their final names (a new render writes them again), and for a video, hidden segments beside the output (.NAME.<render id>.<first>-<last>.seg.EXT) that no later render reuses or removes: delete those.',
  ).toInfo();
}

function outcomeOf(
  item: RenderQueueItem,
  status: JobItemOutcome['status'],
  error?: ErrorInfo,
): JobItemOutcome {
  return {
    id: item.id,
    alpha: item.alpha,
    status,
    frames: 0,
    skipped: 0,
    files: [],
    manifest: null,
    ...(error && { error }),
  };
}

async function renderOne(
  doc: Project,
  item: RenderQueueItem,
  index: number,
  itemsTotal: number,
  renderId: string,
  links: Links,
  /** Settles when Redis is lost mid-render (watchRedis), with the item's error. */
  lost: Promise<ErrorInfo>,
  options: Omit<DistributedRenderOptions, 'detail'>,
): Promise<JobItemOutcome> {
  if (options.signal.aborted)
    return outcomeOf(item, 'stopped', {
      code: 'cancelled',
      message: 'The render was stopped before this item.',
      remediation: 'Render again.',
    });
  let spans;
  let split: Split;
  let sound: boolean;
  let frameRate: number;
  try {
    // The same checks a local job makes before it renders (the composition exists, the range fits).
    const plan = planItem(doc, item);
    const comp = doc.items.find((i) => i.id === item.comp);
    const span = frameSpan(item, comp?.type === 'composition' ? comp : undefined)!;
    split = plan.picture ? splitOf(item.format) : 'whole';
    sound = plan.sound;
    frameRate = plan.frameRate;
    spans = chunkSpans(span, options.chunkSize, split);
  } catch (err) {
    if (err instanceof EngineError) return outcomeOf(item, 'failed', err.toInfo());
    throw err;
  }
  const framesTotal = spans.reduce((n, s) => n + s.end - s.start + 1, 0);
  // The folders the item's output will be the first to make: removed (when empty) if it fails or stops, as a
  // local render removes the folders it created.
  const madeDirs = await missingFolders(dirname(item.output));
  // Deterministic ids: a chunk delivered twice is the same job, and its frames the same files.
  const parentId = `${renderId}-i${index}`;
  const chunkId = (s: { start: number; end: number }) => `${parentId}-f${s.start}-${s.end}`;
  const common = { version: options.version, renderId, item, roots: options.roots ?? null };
  const assembleData: AssembleData = {
    ...common,
    frames: framesTotal,
    split,
    frameRate,
    sound: split === 'segments' && sound,
  };
  const children = spans.map((s) => {
    const segment = split === 'segments' ? segmentPath(item.output, renderId, s) : null;
    const data: ChunkData = { ...common, start: s.start, end: s.end, segment };
    return {
      name: JOB.chunk,
      queueName: QUEUE_NAME,
      data,
      opts: {
        jobId: chunkId(s),
        failParentOnFailure: true,
        ...retryOptions(options.attempts, options.backoffMs),
        removeOnComplete: true,
      },
    };
  });
  // Progress: the latest count of each chunk, summed; reported only when the sum grows. The chunks' last frame
  // is not the item's end: the assembly (segments joined, a video's whole sound mixed and muxed: a minute and
  // more for an hour of composition) comes after it, so the item reads done only once assembled (`final`).
  const done = new Map<string, number>();
  let reported = -1;
  const report = (final = false) => {
    const sum = [...done.values()].reduce((n, d) => n + d, 0);
    const shown = final ? sum : Math.min(sum, framesTotal - 1);
    if (shown <= reported) return;
    reported = shown;
    options.onProgress({ itemId: item.id, framesDone: shown, framesTotal, itemsDone: index, itemsTotal });
  };
  const chunkIds = new Set(spans.map(chunkId));
  const onProgress = ({ jobId, data }: { jobId: string; data: unknown }) => {
    if (!chunkIds.has(jobId)) return;
    const p = ChunkProgress.safeParse(data);
    if (p.success) done.set(jobId, Math.max(done.get(jobId) ?? 0, p.data.done));
    report();
  };
  links.events.on('progress', onProgress);
  // A worker lost mid-chunk (killed, its machine gone) says nothing: once its lock has expired, BullMQ's check
  // finds the chunk stalled and queues it again. Said, so a minute without progress is not taken for a hang, and
  // that chunk's frames count again from 0 (its next worker renders it from its first frame).
  const spanOf = new Map(spans.map((s) => [chunkId(s), s]));
  const onStalled = ({ jobId }: { jobId: string }) => {
    const span = spanOf.get(jobId);
    if (!span) return;
    done.set(jobId, 0);
    options.onNotice?.(
      `The worker rendering frames ${span.start}-${span.end} of ${item.id} stopped answering (killed, or its machine lost): that chunk goes back to the queue, and another worker renders it from its first frame.`,
    );
  };
  links.events.on('stalled', onStalled);
  // Said once every chunk has completed, not when their frame counts add up: a worker killed after its last
  // frame's count but before its segment was stored counted in full, and the notice came ~30 s before its
  // chunk was found stalled and rendered again.
  const completed = new Set<string>();
  const onCompleted = ({ jobId }: { jobId: string }) => {
    if (!chunkIds.has(jobId) || completed.has(jobId)) return;
    completed.add(jobId);
    if (completed.size === chunkIds.size && split === 'segments')
      options.onNotice?.(
        `Every frame of ${item.id} is rendered: a worker is joining its ${spans.length} segments${sound ? ' and mixing its sound' : ''}.`,
      );
  };
  links.events.on('completed', onCompleted);
  report();
  let stop: () => void = () => undefined;
  const stopped = new Promise<'stopped'>((resolve) => (stop = () => resolve('stopped')));
  options.signal.addEventListener('abort', stop);
  let unwatchFlow = () => undefined as void;
  try {
    const flow = await links.flows.add({
      name: JOB.assemble,
      queueName: QUEUE_NAME,
      data: assembleData,
      opts: { jobId: parentId, attempts: 1 },
      children,
    });
    const parent = flow.job as Job;
    const finished = parent.waitUntilFinished(links.events).then(
      (value: unknown) => ({ ok: true as const, value }),
      (err: unknown) => ({ ok: false as const, reason: (err as Error).message }),
    );
    // Redis answering again but without this flow (restarted, flushed): nothing would ever finish it.
    const flowWatch = watchFlow(links.queue, parentId);
    unwatchFlow = () => flowWatch.close();
    const flowGone = flowWatch.gone.then((cause) => ({ gone: cause }));
    const result = await Promise.race([finished, stopped, lost, flowGone]);
    // Redis is gone: nothing more can be asked of it (chunk states, cancel, cleanup of completed chunks).
    if (result !== 'stopped' && 'code' in result) return outcomeOf(item, 'failed', result);
    if (result !== 'stopped' && 'gone' in result) {
      // The chunks in hand stop and remove their files; what completed chunks wrote is listed nowhere now.
      await broadcastCancel(links.control, parentId).catch(() => undefined);
      await removeEmpty(madeDirs);
      return outcomeOf(item, 'failed', lostRedis(options, result.gone));
    }
    if (result === 'stopped') {
      // Chunks rendering on workers stop and remove their own files; then the completed chunks' frames go.
      await broadcastCancel(links.control, renderId).catch(() => undefined);
      await settled(links.queue, [...chunkIds, parentId]);
      await discard(links.queue, parentId);
      await removeEmpty(madeDirs);
      return outcomeOf(item, 'stopped', {
        code: 'cancelled',
        message: 'The render was stopped.',
        remediation: 'Render again to finish it.',
      });
    }
    if (!result.ok) {
      // The cause first (the chunks cancelled next fail too, as cancelled).
      const error = await chunkFailure(links.queue, [...chunkIds], result.reason);
      // The item's other chunks are of no use: those in hand stop and remove their files, those queued are not
      // rendered; then its folders go, as a local render's do.
      await broadcastCancel(links.control, parentId).catch(() => undefined);
      await settled(links.queue, [...chunkIds]);
      await discard(links.queue, parentId);
      await removeEmpty(madeDirs);
      return outcomeOf(item, 'failed', error);
    }
    const assembled = AssembleResult.parse(result.value);
    await links.queue.remove(parentId).catch(() => undefined);
    // Every frame is there: the bar ends full even if the last progress event was throttled away.
    done.clear();
    done.set('all', framesTotal);
    report(true);
    return {
      id: item.id,
      alpha: item.alpha,
      status: 'done',
      frames: assembled.frames,
      skipped: assembled.skipped,
      files: assembled.files as OutputFile[],
      manifest: assembled.manifest,
    };
  } finally {
    unwatchFlow();
    links.events.off('progress', onProgress);
    links.events.off('stalled', onStalled);
    links.events.off('completed', onCompleted);
    options.signal.removeEventListener('abort', stop);
  }
}

// How long a stopped render waits for the chunks in hand on workers to stop and clean up.
const SETTLE_TIMEOUT_MS = 30_000;
const SETTLE_POLL_MS = 100;

/** Waits until none of the chunks `ids` is being rendered (they finished, failed, or were never taken). */
async function settled(queue: Queue, ids: string[]): Promise<void> {
  const until = Date.now() + SETTLE_TIMEOUT_MS;
  while (Date.now() < until) {
    const states = await Promise.all(ids.map((id) => queue.getJobState(id).catch(() => 'unknown')));
    if (!states.includes('active')) return;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** The first failed chunk's error (its worker's ErrorInfo), else the parent's own reason. */
async function chunkFailure(queue: Queue, ids: string[], parentReason: string): Promise<ErrorInfo> {
  for (const id of ids) {
    const job = await queue.getJob(id).catch(() => undefined);
    // A chunk waiting for its retry keeps its last attempt's reason: only a chunk that failed for good counts.
    if (job?.failedReason && (await job.isFailed())) return decodeFailure(job.failedReason);
  }
  return decodeFailure(parentReason);
}

/** `dir` and its ancestors that do not exist yet, deepest first. */
async function missingFolders(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = dir; dirname(d) !== d; d = dirname(d)) {
    if (await stat(d).catch(() => null)) break;
    missing.push(d);
  }
  return missing;
}

/**
 * Removes `dirs` (deepest first) while each is empty, as a local render's FileTracker removes the folders it
 * made: a folder someone put a file in meanwhile stays, and so do the ones above it.
 */
async function removeEmpty(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) if ((await rmdir(dir).catch(() => 'kept')) === 'kept') return;
}

/**
 * Removes an item's flow that did not finish: the chunks not started go, and the frames of the chunks that
 * completed are deleted, the earlier files they replaced put back (kept.ts), so a failed or stopped item
 * leaves no partial sequence and the earlier render as it was (as locally). A chunk that is
 * still rendering cannot be removed here (its worker holds the lock).
 */
async function discard(queue: Queue, parentId: string): Promise<void> {
  const parent = await queue.getJob(parentId).catch(() => undefined);
  const values = parent ? await parent.getChildrenValues().catch(() => ({})) : {};
  const chunks = Object.values(values).flatMap((v) => {
    const chunk = ChunkResult.safeParse(v);
    return chunk.success ? [chunk.data] : [];
  });
  // Assembled just before the stop: its manifest goes with the frames, and so does a joined video (the one
  // file not a chunk's own: its segments were removed once it was in place).
  const assembled = AssembleResult.safeParse(parent?.returnvalue);
  if (assembled.success) {
    const chunkFiles = new Set(chunks.flatMap((c) => c.files.map((f) => f.path)));
    const joined = assembled.data.files.filter((f) => !chunkFiles.has(f.path)).map((f) => f.path);
    const made = [...joined, ...(assembled.data.manifest ? [assembled.data.manifest] : [])];
    await Promise.all(made.map((path) => unlink(path).catch(() => undefined)));
  }
  for (const chunk of chunks) await undoChunk(chunk);
  await queue.remove(parentId, { removeChildren: true }).catch(() => undefined);
  await queue.clean(0, 0, 'failed').catch(() => undefined);
}
