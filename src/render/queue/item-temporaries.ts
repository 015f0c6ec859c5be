/**
 * Which stale temporaries an item may reclaim (stale-temporaries.ts): those of its own output's names, in its
 * output folder and its overflow folders that exist. Swept when a local render's item starts and again when it
 * completes (a render re-run right after a kill finds the killed one's files too fresh at first).
 */
import { promises as fs } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { RenderQueueItem } from '../../engine/index.js';
import { frameOfName, hasFrameField } from '../../engine/output-template.js';
import { manifestPathFor } from './manifest.js';
import { reclaimStaleTemporaries } from './stale-temporaries.js';
import type { FileTracker } from './tracker.js';

export async function reclaimItemTemporaries(
  item: Pick<RenderQueueItem, 'output' | 'overflow'>,
  tracker: FileTracker,
): Promise<string[]> {
  const manifest = basename(manifestPathFor(item.output));
  const ours = hasFrameField(item.output)
    ? (name: string) => name === manifest || frameOfName(item.output, name) !== null
    : (name: string) => name === manifest || name === basename(item.output);
  const dirs = [...new Set([dirname(item.output), ...item.overflow.map((o) => resolve(o.dir))])];
  const removed: string[] = [];
  for (const dir of dirs) {
    // A folder that is not there holds nothing to reclaim; the render creates it when it writes.
    if (!(await fs.stat(dir).catch(() => null))?.isDirectory()) continue;
    const opened = await tracker.ensureDir(dir).catch(() => null);
    if (opened) removed.push(...(await reclaimStaleTemporaries(opened, ours)));
  }
  return removed;
}
