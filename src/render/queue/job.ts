/** One render job: the queued items of a document snapshot, rendered one after another. */
import type { ErrorInfo, RenderQueueItem } from '../../engine/index.js';
import type { OutputFile } from './exporters/types.js';
import { renderItem, type ItemEnv, type ItemOutcome } from './item.js';
import { removedError } from './item-errors.js';
import { withManifests } from './manifest.js';
import { inResolvedFolders } from './output-links.js';
import { framesOf } from './plan.js';
import type { ItemStatus } from './status.js';

/** Progress of a job, as the CLI and the MCP layer show it. */
export interface JobProgress {
  itemId: string;
  framesDone: number;
  framesTotal: number;
  itemsDone: number;
  itemsTotal: number;
  /**
   * Set on the one event sent when the item ends, however it ends (done, failed before its first frame, stopped
   * by anyone): a view that shows statuses (the studio's Render Queue) learns of every end from the stream.
   */
  status?: 'done' | 'failed' | 'stopped';
}

/** What a job needs: the render environment of its items, plus the items and where statuses go. */
export interface JobEnv extends Omit<ItemEnv, 'removed' | 'onFrames'> {
  items: RenderQueueItem[];
  /** Whether an item is still in the live document's queue; a removed item is not rendered. */
  isQueued(id: string): boolean;
  setStatus(id: string, status: ItemStatus): void;
  onProgress(p: JobProgress): void;
}

export interface JobItemOutcome extends ItemOutcome {
  id: string;
  /** Whether the item rendered RGB + Alpha (reported so a pipeline can tell a matte-ready output). */
  alpha: boolean;
  /** The manifest of a done item that wrote files (see manifest.ts); null otherwise. */
  manifest: string | null;
}

/**
 * What an item wrote, as reported to clients: sequences by first/last/count, the total bytes and the manifest
 * that lists every file. `sha256` (every file's hash) is there only in the per-file detail: one hash per frame
 * would fill a model's context (31,000 characters for 300 frames).
 */
export interface ItemReport {
  id: string;
  alpha: boolean;
  status: ItemOutcome['status'];
  frames: number;
  skipped_frames: number;
  files: { first: string; last: string; count: number } | null;
  bytes: number;
  manifest: string | null;
  sha256?: Record<string, string>;
  error?: ErrorInfo;
  warnings?: string[];
}

/** How much of each item a render result carries: compact (default) or every file with its sha256. */
export type ReportDetail = 'compact' | 'files';

export function reportItem(o: JobItemOutcome, detail: ReportDetail): ItemReport {
  const files: OutputFile[] = o.files;
  const report: ItemReport = {
    id: o.id,
    alpha: o.alpha,
    status: o.status,
    frames: o.frames,
    skipped_frames: o.skipped,
    files: files.length ? { first: files[0]!.path, last: files.at(-1)!.path, count: files.length } : null,
    bytes: files.reduce((n, f) => n + f.bytes, 0),
    manifest: o.manifest,
  };
  if (detail === 'files') report.sha256 = Object.fromEntries(files.map((f) => [f.path, f.sha256]));
  if (o.error) report.error = o.error;
  if (o.warnings?.length) report.warnings = o.warnings;
  return report;
}

export async function runJob(env: JobEnv): Promise<JobItemOutcome[]> {
  const outcomes: JobItemOutcome[] = [];
  const written = new Set<string>();
  for (const [index, item] of env.items.entries()) {
    if (env.signal.aborted) {
      const error = {
        code: 'cancelled',
        message: 'The render was stopped before this item.',
        remediation: 'Render again.',
      } as const;
      const framesTotal = framesOf(env.doc, item);
      env.setStatus(item.id, { status: 'stopped', framesDone: 0, framesTotal, files: 0, error });
      outcomes.push({
        id: item.id,
        alpha: item.alpha,
        status: 'stopped',
        frames: 0,
        skipped: 0,
        files: [],
        manifest: null,
        error,
      });
      continue;
    }
    if (!env.isQueued(item.id)) {
      // Removed before its turn: nothing is rendered; the report leaves it out and counts it as failed.
      const error = removedError(item.id);
      env.setStatus(item.id, { status: 'failed', framesDone: 0, framesTotal: 0, files: 0, error });
      outcomes.push({
        id: item.id,
        alpha: item.alpha,
        status: 'failed',
        frames: 0,
        skipped: 0,
        files: [],
        manifest: null,
        error,
      });
      continue;
    }
    // Its frames until its progress says otherwise: an item that fails before its first frame (a footage file
    // gone) was listed 0/0, where it had read 0/N while queued.
    let total = framesOf(env.doc, item);
    let reached = 0;
    let manifest: string | null = null;
    const outcome = await renderItem(item, {
      ...env,
      exporters: withManifests(env.exporters, (path) => (manifest = path)),
      written,
      reclaimStale: true,
      removed: () => !env.isQueued(item.id),
      onFrames(done, framesTotal, files) {
        total = framesTotal;
        reached = done;
        env.setStatus(item.id, { status: 'rendering', framesDone: done, framesTotal, files });
        env.onProgress({
          itemId: item.id,
          framesDone: done,
          framesTotal,
          itemsDone: index,
          itemsTotal: env.items.length,
        });
      },
    });
    // A manifest written before the item stopped short was removed with its files.
    if (outcome.status !== 'done') manifest = null;
    const done: JobItemOutcome = { id: item.id, alpha: item.alpha, ...outcome, manifest };
    const paths = (outcome.status === 'done' ? outcome.files : []).map((f) => f.path);
    if (done.manifest) paths.push(done.manifest);
    // As spelt and with links resolved: a later item may reach the same files through a linked folder.
    for (const path of [...paths, ...(await inResolvedFolders(paths))]) written.add(path);
    env.setStatus(item.id, finalStatus(done, total, reached));
    outcomes.push(done);
  }
  return outcomes;
}

/**
 * The live status of an item that has ended (`framesTotal`: its frames, as its progress last said). A stopped or
 * failed item's `framesDone` is how far it got (`reached`, its last progress), and `files` what it kept: a video
 * stopped at frame 120 of 240 reads 120/240 with no file, not 0/240 as if it had never started.
 */
export function finalStatus(outcome: JobItemOutcome, framesTotal: number, reached = 0): ItemStatus {
  const kept = outcome.frames + outcome.skipped;
  const status: ItemStatus = {
    status: outcome.status,
    framesDone: outcome.status === 'done' ? kept : Math.max(kept, Math.min(reached, framesTotal)),
    framesTotal,
    files: outcome.files.length,
  };
  if (outcome.manifest) status.manifest = outcome.manifest;
  if (outcome.error) status.error = outcome.error;
  if (outcome.warnings?.length) status.warnings = outcome.warnings;
  return status;
}
