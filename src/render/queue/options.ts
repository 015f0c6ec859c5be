/**
 * The render queue's options, public and resolved. A session passes RenderQueueServiceOptions (every field but
 * liveDocument optional); when a job starts they are resolved once into JobOptions, where every default is
 * decided, and the job, the items and the workers use those as given.
 */
import { availableParallelism } from 'node:os';
import type { Project, Remedy, SurfaceWords } from '../../engine/index.js';
import type { JobRoots } from '../distributed/protocol.js';
import { findFfmpeg } from './exporters/ffmpeg.js';
import { openPlainDir, type OpenWriteDir } from './plain-dir.js';
import { siblingModuleUrl, workerEntryUrl } from '../../node-io/worker-url.js';

export interface RenderQueueServiceOptions {
  /** The engine's live document, read when a job reports (items removed mid-render count as failed). */
  liveDocument: () => Project;
  /**
   * Which project the engine has open (Engine.opening; default: always the same). Statuses are of the opening
   * a job started in, and a job whose project was replaced (closed, another opened) finds none of its items
   * queued any more: they end as removed items do.
   */
  liveOpening?: () => number;
  /** Module URL exporting createFrameRenderer (default: the compositor beside this module, built or source). */
  rendererModule?: string;
  /** Upper bound on worker threads (default: one per core). */
  maxWorkers?: number;
  /** How ffmpeg is found (default: probing PATH when a job starts). */
  findFfmpeg?: () => Promise<string | null>;
  /**
   * How output and overflow folders are opened (default: by path). A confined session passes the
   * confinement's verified handles, so a folder swapped for a symlink after the check redirects nothing.
   */
  openWriteDir?: OpenWriteDir;
  /** Told the files (and manifests) each job wrote, once it ends: get_output serves only such files. */
  onFilesWritten?: (paths: string[]) => void;
  /**
   * Render every job on `effectcraft-cli worker --redis` processes instead of in this one (`mcp --redis URL`,
   * docs/distributed.md). Default: render here.
   */
  distributed?: DistributedQueueOptions;
  /** The surface's words for remedies in item errors (the CLI's; default MCP tools). */
  words?: SurfaceWords;
}

/** Where a service sends its jobs when they render on workers. */
export interface DistributedQueueOptions {
  /** The Redis the workers take jobs from (redis://HOST:PORT). */
  url: string;
  /** The package version: workers of another version refuse the jobs. */
  version: string;
  /** Frames per chunk (or per video segment). */
  chunkSize: number;
  /** Tries of a chunk that fails in a way another try may not, and the first wait between them (retry.ts). */
  attempts: number;
  backoffMs: number;
  /** A confined session's roots, which the workers confine each job to; null or absent: not confined. */
  roots?: JobRoots | null;
  /** What to do when Redis cannot be reached, in the words of whoever gave the URL. */
  unreachableRemedy?: Remedy;
  /** Where a render says it waits with no worker listening (the server's log). */
  onNotice?(message: string): void;
}

/** How one job runs, every default decided. */
export interface JobOptions {
  /** The render worker module (the build's, or the current source when running from sources). */
  workerUrl: URL;
  /** Module URL exporting createFrameRenderer, loaded by every worker. */
  rendererModule: string;
  /** Absolute path of ffmpeg, or null when it is not installed (ffmpeg formats then fail their items). */
  ffmpeg: string | null;
  /** Upper bound on worker threads per item (an item never gets more workers than frames). */
  maxWorkers: number;
  /** How output folders are opened: through the confinement when confined, else by path. */
  openWriteDir: OpenWriteDir;
  /** How an item's error names what to do (the session's surface: MCP tools by default, or the CLI's). */
  words?: SurfaceWords;
}

/**
 * Resolves the service's options for a job that is starting. Finds the worker module and probes for ffmpeg,
 * so it runs per job, never when a session is created.
 */
export async function resolveJobOptions(options: RenderQueueServiceOptions): Promise<JobOptions> {
  const { workerUrl, rendererModule } = workerModules(options);
  const ffmpeg = await (options.findFfmpeg ?? findFfmpeg)();
  return {
    workerUrl,
    rendererModule,
    ffmpeg,
    maxWorkers: options.maxWorkers ?? availableParallelism(),
    openWriteDir: options.openWriteDir ?? openPlainDir,
    ...(options.words && { words: options.words }),
  };
}

/** The render worker's entry and the renderer module its workers load. */
export function workerModules(
  options: RenderQueueServiceOptions,
): Pick<JobOptions, 'workerUrl' | 'rendererModule'> {
  return {
    workerUrl: workerEntryUrl('./worker.js', import.meta.url),
    rendererModule: options.rendererModule ?? siblingModuleUrl('../index.js', import.meta.url).href,
  };
}

/**
 * Render workers for an item whose frames go to an encoder child (raw frames: video, GIF, animated WebP): one per
 * two cores, as the encoder keeps more than a core busy itself (docs/exporters.md, "The job").
 */
export const feederWorkers = (): number => Math.max(1, Math.floor(availableParallelism() / 2));
