/**
 * `render PROJECT --redis URL`: the items chosen on the command line (the same ones, prepared by the same
 * commands, as a local render) rendered by `effectcraft-cli worker` processes instead of this one. The job
 * carries the document as opened, so a worker renders exactly what this machine would have.
 */
import { EngineError, type ErrorInfo } from '../engine/index.js';
import { renderDistributed, type DistributedRenderOptions } from '../render/distributed/coordinator.js';
import { assertRedisReachable } from '../render/distributed/connection.js';
import { laneCount, renderInLanes } from '../render/distributed/lanes.js';
import { refuseInstalledPackageOutputs } from '../render/queue/installed-package.js';
import { findItem } from '../render/queue/commands/items.js';
import type { JobResult } from '../render/queue/service.js';
import type { Session } from '../session.js';
import { CLI_WORDS } from './cli-words.js';

/**
 * Renders the queue items `ids` on the workers; an error that stops the whole render is returned as a value.
 * `spread`: the items are many and independent (--data rows), so they go to every worker listening at once
 * (lanes.ts) instead of one after another.
 */
export async function renderOnWorkers(
  session: Session,
  ids: string[],
  options: DistributedRenderOptions,
  spread = false,
): Promise<{ ok: true; result: JobResult } | { ok: false; error: ErrorInfo }> {
  const doc = session.engine.document;
  try {
    const items = ids.map((id) => findItem(doc.renderQueue, id));
    refuseInstalledPackageOutputs(items);
    if (!spread) return { ok: true, result: await renderDistributed(doc, items, options) };
    await assertRedisReachable(options.url);
    const lanes = await laneCount(options.url, items.length);
    return { ok: true, result: await renderInLanes(doc, items, options, lanes) };
  } catch (err) {
    if (err instanceof EngineError) return { ok: false, error: err.toInfo(CLI_WORDS) };
    throw err;
  }
}
