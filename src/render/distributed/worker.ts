/**
 * A render worker (`effectcraft-cli worker --redis URL`): takes chunk and assembly jobs from the BullMQ queue.
 * A chunk renders a copy of its item with `frameRange` set to the chunk, through the render queue's own
 * renderItem (same planning, props, exporters, workers and exact cleanup as a local render), so its frames land
 * at their final names, byte for byte what a local render writes. The assembly writes the item's manifest from
 * every chunk's files. A job from another version is refused: two versions may not draw the same frame alike.
 */
import { dirname } from 'node:path';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { EngineError, type EnginePorts, type ErrorInfo, type Project } from '../../engine/index.js';
import { findExecutable } from '../../node-io/search-path.js';
import { findFfmpeg } from '../queue/exporters/ffmpeg.js';
import { builtinExporters } from '../queue/exporters/index.js';
import { templateDoc } from '../queue/template-doc.js';
import { renderItem } from '../queue/item.js';
import { writeManifest } from '../queue/manifest.js';
import { resolveJobOptions } from '../queue/options.js';
import { FileTracker, KeptAside } from '../queue/tracker.js';
import { CANCEL_CHANNEL, isCancelled } from './cancel.js';
import { isAbandoned, LEASE_RENEW_MS, LEASE_SECONDS } from './lease.js';
import { workerOptions } from './connection.js';
import { changedSoundFile, unreadableFootage } from './footage-check.js';
import { jobIo } from './job-confinement.js';
import { dropKept, keptTag } from './kept.js';
import { DocCache, docGone } from './shared-doc.js';
import { removeAbandonedSegments, removeLeftTemporaries } from './leftovers.js';
import { manifestPathFor } from '../queue/manifest.js';
import { FailedHere, HANDBACK_REST_MS, jobFailure } from './retry.js';
import { joinSegments } from './join-segments.js';
import {
  AssembleData,
  ChunkData,
  ChunkResult,
  encodeFailure,
  JOB,
  QUEUE_NAME,
  type AssembleResult,
} from './protocol.js';

export interface RenderWorkerOptions {
  url: string;
  /** The version this worker renders as (its package's); jobs of another version are refused. */
  version: string;
  ports: EnginePorts;
  /** Render threads per chunk (default: one per core). */
  maxWorkers?: number;
  findFfmpeg?: () => Promise<string | null>;
  /** Lines for the worker's log (stderr). */
  log(message: string): void;
  /** BullMQ lock and stalled-check periods in ms (tests shorten them to see a killed worker sooner). */
  lockDuration?: number;
  stalledInterval?: number;
  /** How this worker is named in its errors (default hostname:pid), so a failure says which machine met it. */
  name: string;
  /** Test knob: the first chunk this worker takes fails with a transient io_error (to see it retried). */
  failFirstChunk?: boolean;
}

// A chunk reports progress at most this often: every report is a Redis write and an event to the coordinator.
const PROGRESS_INTERVAL_MS = 100;

// How long stop() waits for the current job to be handed back and the connections to close.
const CLOSE_TIMEOUT_MS = 10_000;

/** A running worker. */
export interface RenderWorker {
  /** Stops the chunk in hand (its files removed), puts it back on the queue for another worker, disconnects. */
  stop(): Promise<void>;
}

/** Starts taking jobs; resolves once connected. */
export async function startRenderWorker(options: RenderWorkerOptions): Promise<RenderWorker> {
  const control = new Redis(workerOptions(options.url));
  const subscriber = control.duplicate();
  for (const c of [control, subscriber]) c.on('error', () => undefined);
  // The chunks in hand (job id -> render id), for the cancel broadcast.
  const running = new Map<string, string[]>();
  const state: WorkerState = {
    stopping: false,
    control,
    running,
    failNext: options.failFirstChunk ?? false,
    failedHere: new FailedHere(),
    docs: new DocCache(),
  };
  const worker = new Worker(
    QUEUE_NAME,
    (job, token, signal) => processJob(job, token, options, state, signal),
    {
      connection: workerOptions(options.url),
      // One job at a time: a chunk already uses every core through the render queue's threads.
      concurrency: 1,
      ...(options.lockDuration && { lockDuration: options.lockDuration }),
      ...(options.stalledInterval && { stalledInterval: options.stalledInterval }),
    },
  );
  worker.on('error', (err) => options.log(`worker: Redis error: ${err.message}`));
  // A render's id (it was stopped) or one item's (it failed: its other chunks are of no use any more).
  subscriber.on('message', (_channel: string, cancelled: string) => {
    for (const [jobId, ids] of running)
      if (ids.includes(cancelled) && worker.cancelJob(jobId, 'the render was cancelled'))
        options.log(`worker: job ${jobId} cancelled by the render`);
  });
  // A render whose coordinator died broadcasts no cancel: its lease running out stops the jobs in hand.
  const leases = setInterval(() => void stopAbandoned(), LEASE_RENEW_MS);
  leases.unref();
  async function stopAbandoned(): Promise<void> {
    for (const [jobId, [renderId]] of running) {
      if (!renderId || !(await isAbandoned(control, renderId).catch(() => false))) continue;
      if (worker.cancelJob(jobId, 'its render was abandoned'))
        options.log(`worker: job ${jobId} stopped: ${ABANDONED.message}`);
    }
  }
  await subscriber.subscribe(CANCEL_CHANNEL);
  await worker.waitUntilReady();
  return {
    async stop() {
      clearInterval(leases);
      state.stopping = true;
      worker.cancelAllJobs('the worker is stopping');
      // close() waits for Redis to take the job back: with Redis gone it would wait for ever.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)));
      await Promise.race([worker.close(), late]);
      clearTimeout(timer);
      subscriber.disconnect();
      control.disconnect();
    },
  };
}

/** A chunk job with its render's document. */
type ChunkWork = ChunkData & { doc: Project };

interface WorkerState {
  stopping: boolean;
  control: Redis;
  /** Each job in hand and the ids that cancel it (its render's, and a chunk's item's). */
  running: Map<string, string[]>;
  /** --fail-first-chunk not used up yet. */
  failNext: boolean;
  failedHere: FailedHere;
  /** The last render's document, read once per render (shared-doc.ts). */
  docs: DocCache;
}

async function processJob(
  job: Job,
  token: string | undefined,
  options: RenderWorkerOptions,
  state: WorkerState,
  signal?: AbortSignal,
): Promise<unknown> {
  const version = (job.data as { version?: unknown } | undefined)?.version;
  if (version !== options.version) {
    const error: ErrorInfo = {
      code: 'not_configured',
      message: `A render worker of effectcraft-cli ${options.version} refused job ${job.id}, sent by version ${String(version)}.`,
      remediation: 'Run the same effectcraft-cli version on every worker and on the machine that renders.',
    };
    options.log(`worker: ${error.message}`);
    throw new UnrecoverableError(encodeFailure(error));
  }
  if (job.name === JOB.chunk) {
    const data = parsed(ChunkData, job.data);
    // The render stopped, or the chunk's item failed (the coordinator cancels the item's other chunks).
    const ids = [data.renderId, ...(job.parent?.id ? [job.parent.id] : [])];
    for (const id of ids)
      if (await isCancelled(state.control, id)) throw new UnrecoverableError(encodeFailure(CANCELLED));
    if (await isAbandoned(state.control, data.renderId)) {
      options.log(`worker: job ${job.id} dropped: ${ABANDONED.message}`);
      // The segments its chunks completed will never be joined: the first worker to see it removes them.
      const gone = data.segment ? await removeAbandonedSegments(data.segment) : 0;
      if (gone) options.log(`worker: removed ${gone} segment(s) of that render, which nothing will join`);
      throw new UnrecoverableError(encodeFailure(ABANDONED));
    }
    // A retry of a chunk that failed here goes to another worker if one comes while this one rests.
    if (state.failedHere.handBack(job.id!)) {
      options.log(`worker: job ${job.id} failed on this worker before: handed back for another worker`);
      await job.moveToWait(token);
      await new Promise((resolve) => setTimeout(resolve, HANDBACK_REST_MS));
      throw new WaitingError();
    }
    const doc = await state.docs.get(state.control, data.renderId);
    if (!doc) throw new UnrecoverableError(encodeFailure(docGone(data.renderId)));
    state.running.set(job.id!, ids);
    const result = await chunkOnce(job, { ...data, doc }, options, state, signal)
      .catch((err: unknown) => {
        if (!(err instanceof UnrecoverableError)) state.failedHere.remember(job.id!);
        throw err;
      })
      .finally(() => state.running.delete(job.id!));
    if (result !== 'stopped') return result;
    // Stopped because this worker is shutting down: the chunk is not failed, it goes back for another worker.
    if (state.stopping) {
      await job.moveToWait(token);
      throw new WaitingError();
    }
    // Stopped because its render's lease ran out (lease.ts): said as that, for a coordinator that was only paused.
    const abandoned = await isAbandoned(state.control, data.renderId).catch(() => false);
    throw new UnrecoverableError(encodeFailure(abandoned ? ABANDONED : CANCELLED));
  }
  if (job.name === JOB.assemble) {
    // A render stopped while its last chunks finished writes no manifest.
    const { renderId, sound, split } = parsed(AssembleData, job.data);
    if (await isCancelled(state.control, renderId)) throw new UnrecoverableError(encodeFailure(CANCELLED));
    if (await isAbandoned(state.control, renderId)) {
      // Every chunk completed, and nobody waits for the join: its segments go with it.
      const values = Object.values(await job.getChildrenValues()).map((v) => ChunkResult.safeParse(v));
      const segment = values.flatMap((v) => (v.success ? v.data.files : []))[0]?.path;
      const gone = segment && split === 'segments' ? await removeAbandonedSegments(segment) : 0;
      options.log(
        `worker: job ${job.id} dropped: ${ABANDONED.message}${gone ? ` (${gone} segment(s) removed)` : ''}`,
      );
      throw new UnrecoverableError(encodeFailure(ABANDONED));
    }
    // Only joined segments with sound need the document (to mix the sound once, for the whole item).
    const soundDoc = sound ? await state.docs.get(state.control, renderId) : null;
    if (sound && !soundDoc) throw new UnrecoverableError(encodeFailure(docGone(renderId)));
    // In hand like a chunk: the cancel broadcast stops the mix and the join (their files removed).
    state.running.set(job.id!, [renderId]);
    const own = signal ?? new AbortController().signal;
    try {
      return await assemble(job, soundDoc, options, own);
    } catch (err) {
      // Stopped because this worker is shutting down: the segments are still there for another worker to join.
      if (!own.aborted || !state.stopping) throw err;
      await job.moveToWait(token);
      throw new WaitingError();
    } finally {
      state.running.delete(job.id!);
    }
  }
  throw new UnrecoverableError(
    encodeFailure({
      code: 'bad_argument',
      message: `Unknown job "${job.name}".`,
      remediation: 'Run the same effectcraft-cli version everywhere.',
    }),
  );
}

/** Renders the chunk, unless it is the first of a worker started with --fail-first-chunk. */
async function chunkOnce(
  job: Job,
  data: ChunkWork,
  options: RenderWorkerOptions,
  state: WorkerState,
  signal?: AbortSignal,
): Promise<ChunkResult | 'stopped'> {
  if (state.failNext) {
    state.failNext = false;
    options.log(`worker: ${data.item.id} frames ${data.start}-${data.end} failed: ${SIMULATED.message}`);
    throw jobFailure(onWorker(SIMULATED, job, options));
  }
  return renderChunk(job, data, options, signal ?? new AbortController().signal);
}

function parsed<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  v: unknown,
): T {
  const r = schema.safeParse(v);
  if (r.success) return r.data;
  throw new UnrecoverableError(
    encodeFailure({
      code: 'bad_argument',
      message: 'A render job carried data this worker cannot read.',
      remediation: 'Run the same effectcraft-cli version on every worker and on the machine that renders.',
    }),
  );
}

const SIMULATED: ErrorInfo = {
  code: 'io_error',
  message: 'The first chunk of a worker started with --fail-first-chunk failed on purpose.',
  remediation: 'Start the worker without --fail-first-chunk (a test option).',
};

/**
 * `error` as met on this worker: its message names the worker and the attempt, so a failure that only one
 * machine meets (a file it cannot read) is found, and a failure after retries says it was retried.
 */
function onWorker(error: ErrorInfo, job: Job, options: RenderWorkerOptions): ErrorInfo {
  const attempt = `attempt ${job.attemptsMade + 1} of ${job.opts.attempts ?? 1}`;
  return { ...error, message: `On worker ${options.name} (${attempt}): ${error.message}` };
}

/** The ffprobe beside this worker's ffmpeg, or null. */
async function findFfprobe(options: RenderWorkerOptions): Promise<string | null> {
  const ffmpeg = await (options.findFfmpeg ?? findFfmpeg)();
  return ffmpeg ? findExecutable('ffprobe', dirname(ffmpeg)) : null;
}

const CANCELLED: ErrorInfo = {
  code: 'cancelled',
  message: 'The render was stopped.',
  remediation: 'Render again.',
};

const ABANDONED: ErrorInfo = {
  code: 'cancelled',
  message: `the process that started its render stopped renewing its lease (gone for ${LEASE_SECONDS} s: killed, or its machine lost), so nobody waits for it`,
  remediation: 'Render again.',
};

/**
 * What keeps a segment's item (a video with sound, mixed by the assembly) from rendering: a file its sound reads
 * changed, or a template value's footage that is not what its input takes (a non-media file, sound for a picture):
 * that error, with its own code and remedy (it fails the row at once, as a local batch does), not a worker crash
 * retried with backoff.
 */
async function segmentSoundProblem(data: ChunkWork, options: RenderWorkerOptions): Promise<ErrorInfo | null> {
  try {
    const doc = await templateDoc(data.doc, data.item, options.ports);
    return await changedSoundFile(doc, data.item, await findFfprobe(options));
  } catch (err) {
    if (err instanceof EngineError) return err.toInfo();
    throw err;
  }
}

async function renderChunk(
  job: Job,
  data: ChunkWork,
  options: RenderWorkerOptions,
  signal: AbortSignal,
): Promise<ChunkResult | 'stopped'> {
  const frameRange = { start: data.start, end: data.end };
  // A video chunk encodes its own segment, silent (an item with sound renders whole), rewritten if delivered twice.
  const item = data.segment
    ? { ...data.item, frameRange, output: data.segment, audio: false, skipExisting: false }
    : { ...data.item, frameRange };
  // Checked before anything renders: a worker without the shared storage says so, naming the file and itself.
  // A chunk of a video with sound renders silent (the assembly mixes the sound): its files are checked here too.
  const unreadable =
    (await unreadableFootage(data.doc, data.item)) ??
    (data.segment ? await segmentSoundProblem(data, options) : null);
  if (unreadable) {
    options.log(`worker: ${data.item.id} frames ${data.start}-${data.end} failed: ${unreadable.message}`);
    throw jobFailure(onWorker(unreadable, job, options));
  }
  // A root not mounted here is said as unreadable footage is: naming this worker, on its log too.
  const confined = jobIo(data.roots, options.ports);
  if (!confined.ok) {
    options.log(`worker: ${data.item.id} frames ${data.start}-${data.end} failed: ${confined.error.message}`);
    throw jobFailure(onWorker(confined.error, job, options));
  }
  const { io } = confined;
  options.log(`worker: ${data.item.id} frames ${data.start}-${data.end}`);
  let last = 0;
  // Earlier files this chunk replaces stay aside until the render completes or is stopped (kept.ts). A
  // segment replaces nothing of an earlier render: its name is this render's own.
  const keepAside = data.segment ? null : new KeptAside(keptTag(data.renderId));
  const outcome = await renderItem(item, {
    ...(keepAside && { keepAside }),
    doc: data.doc,
    ports: io.ports,
    signal,
    exporters: builtinExporters(),
    options: await resolveJobOptions({
      liveDocument: () => data.doc,
      ...(io.openWriteDir && { openWriteDir: io.openWriteDir }),
      ...(options.maxWorkers && { maxWorkers: options.maxWorkers }),
      ...(options.findFfmpeg && { findFfmpeg: options.findFfmpeg }),
    }),
    resume: false,
    removed: () => false,
    onFrames(done, total) {
      const now = Date.now();
      if (done !== total && now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      void job.updateProgress({ done }).catch(() => undefined);
    },
  });
  if (outcome.status === 'stopped') return 'stopped';
  if (outcome.status !== 'done') {
    const error =
      outcome.error ?? new EngineError('render_failed', 'The chunk failed.', 'Render again.').toInfo();
    options.log(
      `worker: ${data.item.id} frames ${data.start}-${data.end} ${outcome.status}: ${error.message}`,
    );
    throw jobFailure(onWorker(error, job, options));
  }
  return {
    start: data.start,
    frames: outcome.frames,
    skipped: outcome.skipped,
    files: outcome.files,
    kept: keepAside?.files ?? [],
  };
}

/** Joins the chunks' reports in frame order and writes the manifest a local render writes. */
async function assemble(
  job: Job,
  soundDoc: Project | null,
  options: RenderWorkerOptions,
  signal: AbortSignal,
): Promise<AssembleResult> {
  const data = parsed(AssembleData, job.data);
  const values = Object.values(await job.getChildrenValues()).map((v) => parsed(ChunkResult, v));
  values.sort((a, b) => a.start - b.start);
  const written = values.flatMap((v) => v.files);
  // A worker killed mid-chunk, or mid-assembly, could not clean up: its temporaries of these frames, and of the
  // joined output, its sound mix and the manifest, are removed here. (A mix that worker's ffmpeg is still
  // writing goes on into the removed file until it ends; nothing of it stays on disk.)
  const { output } = data.item;
  const assembly = data.split === 'segments' ? [output, `${output}.mix.wav`] : [];
  await removeLeftTemporaries([...written.map((f) => f.path), ...assembly, manifestPathFor(output)]);
  let files = written;
  let manifest: string | null = null;
  if (files.length) {
    const confined = jobIo(data.roots, options.ports);
    if (!confined.ok) throw jobFailure(onWorker(confined.error, job, options));
    const { io } = confined;
    const tracker = new FileTracker(io.openWriteDir);
    try {
      if (data.split === 'segments') {
        options.log(
          `worker: ${data.item.id} joining ${values.length} segments${soundDoc ? ', its sound mixed' : ''}`,
        );
        files = await joinSegments(tracker, { ...data, soundDoc }, values, {
          ...options,
          ports: io.ports,
          signal,
        });
      }
      manifest = await writeManifest(tracker, data.item, files);
      await tracker.release();
      await dropKept(values);
    } catch (err) {
      await tracker.removeAll().catch(() => undefined);
      throw new UnrecoverableError(
        encodeFailure(
          err instanceof EngineError
            ? err.toInfo()
            : { code: 'io_error', message: String(err), remediation: 'Check the output folder.' },
        ),
      );
    }
  }
  return {
    frames: values.reduce((n, v) => n + v.frames, 0),
    skipped: values.reduce((n, v) => n + v.skipped, 0),
    files,
    manifest,
  };
}
