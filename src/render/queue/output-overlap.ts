/**
 * A render must never write over the footage it reads: the file would be replaced while its decoder reads
 * it, and every later render would read its own output. After Effects refuses the same. Pure: paths only
 * (both sides are absolute and resolved, as stored), no file system.
 */
import { basename, dirname, resolve } from 'node:path';
import type { FootageItem, Project, RenderQueueItem } from '../../engine/index.js';
import { frameOfName, hasFrameField } from '../../engine/output-template.js';
import { sequenceFrame } from '../../engine/image-sequence.js';
import { reachableFootage } from '../reachable-footage.js';
import type { FrameSpan } from './plan.js';

/** The footage item, and its file, that rendering `item` (frames `span`) would overwrite; null when none. */
export function overwrittenFootage(
  doc: Project,
  item: Pick<RenderQueueItem, 'comp' | 'output' | 'overflow'>,
  span: FrameSpan,
): { footage: FootageItem; file: string } | null {
  // A sequence's frames may also land in its overflow folders once the first volume is full.
  const dirs = new Set([dirname(item.output), ...item.overflow.map((o) => resolve(o.dir))]);
  const sequence = hasFrameField(item.output);
  const writes = (file: string): boolean => {
    if (!dirs.has(dirname(file))) return false;
    if (!sequence) return file === item.output;
    const frame = frameOfName(item.output, basename(file));
    return frame !== null && frame >= span.start && frame <= span.end;
  };
  for (const footage of reachableFootage(doc, [item.comp])) {
    const seq = footage.media?.kind === 'sequence' ? footage.media.sequence : undefined;
    if (!seq) {
      if (writes(footage.path)) return { footage, file: footage.path };
      continue;
    }
    if (!dirs.has(dirname(seq.pattern))) continue;
    for (let n = seq.first; n <= seq.last; n++) {
      const file = sequenceFrame(seq.pattern, n);
      if (writes(file)) return { footage, file };
    }
  }
  return null;
}
