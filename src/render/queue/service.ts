/**
 * The render queue service owned by a session: one job at a time, live per-item status for renderQueue.list,
 * progress listeners, stop. A job renders the document reference it was started with (its snapshot).
 */
import { EngineError, type EnginePorts, type Project, type RenderQueueItem } from '../../engine/index.js';
import type { ExporterFactory, ExporterRegistry } from './exporters/types.js';
import type { ItemReport, JobItemOutcome, JobProgress, ReportDetail } from './job.js';
import {
  feederWorkers,
  resolveJobOptions,
  workerModules,
  type DistributedQueueOptions,
  type RenderQueueServiceOptions,
} from './options.js';
import type { ItemStatus } from './status.js';
import { framesOf } from './plan.js';
import { prestartWorkers } from './warm-workers.js';

export interface JobResult {
  completed: number;
  failed: number;
  stopped: number;
  skipped_frames: number;
  items: ItemReport[];
  /** Ids of items removed from the queue while the job ran: not in `items`, counted in `failed`. */
  removed?: string[];
  /** Why items are missing from `items`, when some were removed. */
  note?: string;
}

/** How a job treats files already there and files of an item that stops short. */
export interface StartOptions {
  /**
   * Resumable render: every item skips what exists (as with skipExisting), and an item that is stopped or
   * fails keeps its complete frames, so the next resumable run continues where this one stopped.
   */
  resume?: boolean;
  /** How much the result says per item (default compact: the manifest has every file's sha256). */
  detail?: ReportDetail;
}

export interface StartedJob {
  ids: string[];
  /** Settles when the job ends; never rejects. */
  done: Promise<JobResult>;
}

/** One job as the service runs it: the snapshot, its items (as planned), and how it renders. */
interface JobArgs {
  doc: Project;
  items: RenderQueueItem[];
  ports: EnginePorts;
  signal: AbortSignal;
  resume: boolean;
}

export class RenderQueueService {
  readonly #options: RenderQueueServiceOptions;
  /** Registered exporters; the built-in ones are added under them when a job starts (see #run). */
  readonly #exporters: ExporterRegistry = new Map();
  readonly #status = new Map<string, ItemStatus>();
  /** The project opening `#status` belongs to: that of the last job started (see RenderQueueServiceOptions). */
  #statusOpening = 0;
  readonly #listeners = new Set<(p: JobProgress) => void>();
  #job: { controller: AbortController; done: Promise<JobResult>; doc: Project } | null = null;
  /** The running job's item ids, in order: where an item that ends stands in its job (see #setStatus). */
  #jobItems: string[] = [];

  constructor(options: RenderQueueServiceOptions) {
    this.#options = options;
  }

  /**
   * Live status of a queue item (undefined: never rendered in this project, i.e. queued). Ids start again in
   * every project: another project's rq_3, rendered before this one was opened, is not this one's.
   */
  readonly statusOf = (itemId: string): ItemStatus | undefined =>
    this.#opening() === this.#statusOpening ? this.#status.get(itemId) : undefined;

  readonly #opening = (): number => this.#options.liveOpening?.() ?? 0;

  get running(): boolean {
    return this.#job !== null;
  }

  /** The document the running job renders (its snapshot), which may name files the live document no longer does. */
  get snapshot(): Project | undefined {
    return this.#job?.doc;
  }

  /**
   * Starts render workers now, for a render that is about to come (the CLI starts them while it opens the
   * project: warm-workers.ts): as many as a video render takes (one per two cores), at the process's priority,
   * which a job may lower. Nothing where jobs render elsewhere (`distributed`).
   */
  prestartWorkers(): void {
    if (this.#options.distributed) return;
    const { workerUrl, rendererModule } = workerModules(this.#options);
    const count = Math.min(this.#options.maxWorkers ?? Infinity, feederWorkers());
    prestartWorkers(workerUrl, { rendererModule, niceness: 0 }, count);
  }

  /** Registers (or replaces) the exporter for an output format. */
  registerExporter(format: string, factory: ExporterFactory): void {
    this.#exporters.set(format, factory);
  }

  /** Subscribes to job progress; returns the unsubscribe function. */
  onProgress(listener: (p: JobProgress) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Throws render_in_progress while a job runs: every way of starting a render goes through here. */
  assertIdle(): void {
    if (this.#job) {
      throw new EngineError(
        'render_in_progress',
        'A render is already running; only one render job runs at a time.',
        'Wait for it to finish (poll renderQueue.list) or stop it with renderQueue.stop, then render again.',
      );
    }
  }

  /** Starts a job on `doc` (the snapshot) for `items`. Synchronously claims the service before any await. */
  start(doc: Project, items: RenderQueueItem[], ports: EnginePorts, options: StartOptions = {}): StartedJob {
    this.assertIdle();
    const controller = new AbortController();
    const resume = options.resume ?? false;
    // Decided once here: the exporters only read skipExisting.
    const planned = resume ? items.map((i) => ({ ...i, skipExisting: true })) : items;
    if (this.#statusOpening !== this.#opening()) this.#status.clear();
    this.#statusOpening = this.#opening();
    for (const item of items)
      this.#status.set(item.id, {
        status: 'queued',
        framesDone: 0,
        framesTotal: framesOf(doc, item),
        files: 0,
      });
    this.#jobItems = items.map((i) => i.id);
    const detail = options.detail ?? 'compact';
    const done = this.#run({ doc, items: planned, ports, signal: controller.signal, resume })
      .then((outcomes) => this.#report(outcomes, detail))
      .finally(() => (this.#job = null));
    this.#job = { controller, done, doc };
    return { ids: items.map((i) => i.id), done };
  }

  /** Stops the running job (its items report `stopped`); false when nothing was running. */
  stop(): boolean {
    if (!this.#job) return false;
    this.#job.controller.abort();
    return true;
  }

  /** Resolves when the running job (if any) has ended. */
  async idle(): Promise<void> {
    await this.#job?.done;
  }

  async #run(job: JobArgs): Promise<JobItemOutcome[]> {
    const { items } = job;
    let outcomes: JobItemOutcome[];
    try {
      const { distributed } = this.#options;
      outcomes = distributed ? await this.#runOnWorkers(distributed, job) : await this.#runHere(job);
      this.#options.onFilesWritten?.(
        outcomes.flatMap((o) => [...o.files.map((f) => f.path), ...(o.manifest ? [o.manifest] : [])]),
      );
    } catch (err) {
      // Setup failed (no tsx to load worker sources): every item fails with the reason, and the service stays usable.
      const error =
        err instanceof EngineError
          ? err.toInfo()
          : { code: 'render_failed' as const, message: String(err), remediation: 'Render again.' };
      outcomes = items.map((i) => ({
        id: i.id,
        alpha: i.alpha,
        status: 'failed',
        frames: 0,
        skipped: 0,
        files: [],
        manifest: null,
        error,
      }));
      for (const i of items)
        this.#setStatus(i.id, { status: 'failed', framesDone: 0, framesTotal: 0, files: 0, error });
    }
    return outcomes;
  }

  async #runHere(job: JobArgs): Promise<JobItemOutcome[]> {
    // The job machinery (workers, pool, exporters, encoders) loads with the first render: a session that never
    // renders (a single still, an inspection) does not pay for it.
    const [{ runJob }, { builtinExporters }] = await Promise.all([
      import('./job.js'),
      import('./exporters/index.js'),
    ]);
    return runJob({
      ...job,
      exporters: new Map([...builtinExporters(), ...this.#exporters]),
      options: await resolveJobOptions(this.#options),
      isQueued: this.#isQueued,
      setStatus: this.#setStatus,
      onProgress: this.#progress,
    });
  }

  /**
   * The job on `worker --redis` processes: the same items of the same snapshot, statuses and progress, and the
   * same outcomes; the signal broadcasts the cancel to every worker (coordinator.ts). Registered exporters are
   * this process's own and do not travel: the workers use the built-in ones.
   */
  async #runOnWorkers(
    distributed: DistributedQueueOptions,
    { doc, items, signal, resume }: JobArgs,
  ): Promise<JobItemOutcome[]> {
    if (resume)
      throw new EngineError(
        'bad_argument',
        'resume:true is not built for renders on workers (this server renders through Redis).',
        'Render without resume (frames that exist are rendered again), or restart the server without --redis to render resumably on its machine.',
      );
    const { renderItemsDistributed } = await import('../distributed/coordinator.js');
    return renderItemsDistributed(doc, items, {
      ...distributed,
      signal,
      isQueued: this.#isQueued,
      setStatus: this.#setStatus,
      onProgress: this.#progress,
    });
  }

  /** Whether an item of the running job is still in the queue: of its project, which may have been replaced since. */
  readonly #isQueued = (id: string) => this.#liveQueue().some((q) => q.id === id);
  readonly #liveQueue = (): readonly RenderQueueItem[] =>
    this.#opening() === this.#statusOpening ? this.#options.liveDocument().renderQueue : [];
  readonly #setStatus = (id: string, s: ItemStatus) => {
    this.#status.set(id, s);
    // Progress events come from frames; an item that fails before its first, or stops, would otherwise end
    // unheard, and a page showing statuses kept "queued" or "rendering" until some edit refreshed it.
    if (s.status === 'done' || s.status === 'failed' || s.status === 'stopped')
      this.#progress({
        itemId: id,
        framesDone: s.framesDone,
        framesTotal: s.framesTotal,
        itemsDone: Math.max(0, this.#jobItems.indexOf(id)),
        itemsTotal: this.#jobItems.length,
        status: s.status,
      });
  };
  readonly #progress = (p: JobProgress) => this.#listeners.forEach((l) => l(p));

  /** Matches outcomes to the live document by id: items removed mid-render are left out and count as failed. */
  async #report(outcomes: JobItemOutcome[], detail: ReportDetail): Promise<JobResult> {
    // Loaded with the job machinery (see #run), by then already in memory.
    const { reportItem } = await import('./job.js');
    const live = new Set(this.#liveQueue().map((q) => q.id));
    const kept = outcomes.filter((o) => live.has(o.id));
    const removed = outcomes.filter((o) => !live.has(o.id)).map((o) => o.id);
    const result: JobResult = {
      completed: kept.filter((o) => o.status === 'done').length,
      failed: kept.filter((o) => o.status === 'failed').length + removed.length,
      stopped: kept.filter((o) => o.status === 'stopped').length,
      skipped_frames: kept.reduce((n, o) => n + o.skipped, 0),
      items: kept.map((o) => reportItem(o, detail)),
    };
    if (removed.length) {
      result.removed = removed;
      result.note = `${removed.length} item(s) were removed from the render queue while rendering (${removed.join(', ')}): they were stopped, their files deleted, and they count as failed.`;
    }
    return result;
  }
}
