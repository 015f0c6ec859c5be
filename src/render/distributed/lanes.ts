/**
 * Many short items on the workers (`render --data rows.csv --redis URL`): the coordinator renders items one
 * after another, so an item of one chunk keeps one worker busy and leaves the others idle. Here the items are
 * dealt to as many coordinators (lanes) as there are workers listening, each rendering its share in order,
 * and their results are merged in the items' order, with one progress count.
 */
import { Queue } from 'bullmq';
import type { Project, RenderQueueItem } from '../../engine/index.js';
import type { JobResult } from '../queue/service.js';
import { coordinatorOptions } from './connection.js';
import { renderDistributed, type DistributedRenderOptions } from './coordinator.js';
import { QUEUE_NAME } from './protocol.js';

// More lanes than this only queue more flows at once: each has its own Redis connections.
const MAX_LANES = 16;

/** How many lanes to use for `items`: the workers listening now (at least 1, at most the items). */
export async function laneCount(url: string, items: number): Promise<number> {
  const queue = new Queue(QUEUE_NAME, { connection: coordinatorOptions(url) });
  queue.on('error', () => undefined);
  try {
    const workers = await queue.getWorkersCount().catch(() => 1);
    return Math.max(1, Math.min(workers, items, MAX_LANES));
  } finally {
    await queue.close().catch(() => undefined);
  }
}

/** Renders `items` on the workers in `lanes` concurrent coordinators; the result lists the items in order. */
export async function renderInLanes(
  doc: Project,
  items: readonly RenderQueueItem[],
  options: DistributedRenderOptions,
  lanes: number,
): Promise<JobResult> {
  if (lanes <= 1) return renderDistributed(doc, items, options);
  const shares = Array.from({ length: lanes }, (_, l) => items.filter((_, i) => i % lanes === l));
  const itemsDone = new Array<number>(lanes).fill(0);
  const settled = await Promise.allSettled(
    shares.map((share, l) =>
      renderDistributed(doc, share, {
        ...options,
        onProgress(p) {
          itemsDone[l] = p.itemsDone;
          options.onProgress({
            ...p,
            itemsDone: itemsDone.reduce((n, d) => n + d, 0),
            itemsTotal: items.length,
          });
        },
      }),
    ),
  );
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const results = settled.map((s) => (s as PromiseFulfilledResult<JobResult>).value);
  const reports = new Map(results.flatMap((r) => r.items).map((i) => [i.id, i]));
  const sum = (key: 'completed' | 'failed' | 'stopped' | 'skipped_frames') =>
    results.reduce((n, r) => n + r[key], 0);
  return {
    completed: sum('completed'),
    failed: sum('failed'),
    stopped: sum('stopped'),
    skipped_frames: sum('skipped_frames'),
    items: items.flatMap((i) => reports.get(i.id) ?? []),
  };
}
