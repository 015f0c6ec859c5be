/**
 * A render must never write over the footage it reads: the file would be replaced while its decoder reads
 * it, and every later render would read its own output. After Effects refuses the same. Nor may an item write
 * over a file an earlier item of the same render wrote: both would be reported done, the first one's file gone.
 * Pure: paths only (both sides are absolute and resolved, as stored), no file system.
 */
import { basename, dirname, resolve } from 'node:path';
import { EngineError, type FootageItem, type Project, type RenderQueueItem } from '../../engine/index.js';
import { frameOfName, hasFrameField } from '../../engine/output-template.js';
import { sequenceFrame } from '../../engine/image-sequence.js';
import { reachableFootage } from '../reachable-footage.js';
import type { FrameSpan } from './plan.js';
import { manifestPathFor } from './manifest.js';

/** The footage item, and its file, that rendering `item` (frames `span`) would overwrite; null when none. */
export function overwrittenFootage(
  doc: Project,
  item: Pick<RenderQueueItem, 'comp' | 'output' | 'overflow'>,
  span: FrameSpan,
): { footage: FootageItem; file: string } | null {
  // A sequence's frames may also land in its overflow folders once the first volume is full.
  const dirs = new Set([dirname(item.output), ...item.overflow.map((o) => resolve(o.dir))]);
  const sequence = hasFrameField(item.output);
  // The manifest is written beside the output too: a clip named `out.mp4.manifest.json` (ffprobe goes by its
  // bytes, not its name) was replaced by the JSON of a render to `out.mp4`, which ended done.
  const manifest = manifestPathFor(item.output);
  const writes = (file: string): boolean => {
    if (file === manifest) return true;
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

/**
 * The footage item `compId` draws (through precomps) whose file is `file` (a sequence: one of its frames);
 * null when none. For outputs written to one literal path: a saved frame.
 */
export function footageAtFile(doc: Project, compId: string, file: string): FootageItem | null {
  for (const footage of reachableFootage(doc, [compId])) {
    const seq = footage.media?.kind === 'sequence' ? footage.media.sequence : undefined;
    if (!seq) {
      if (footage.path === file) return footage;
      continue;
    }
    if (dirname(seq.pattern) !== dirname(file)) continue;
    for (let n = seq.first; n <= seq.last; n++) if (sequenceFrame(seq.pattern, n) === file) return footage;
  }
  return null;
}

/**
 * Throws bad_argument when rendering `item` (frames `span`) would write over footage it reads; `subject` names
 * it in the message ("Queue item \"rq_1\"", "This output"). Checked when an item is queued or changed, and again
 * when it renders (footage may have been added to its composition since). `queued`: the item has an id to
 * update; one being added has not, and its remedy names the add ("renderQueue.update {id, output}" named an id
 * that renderQueue.add had refused to create).
 */
export function refuseFootageOverwrite(
  doc: Project,
  item: Pick<RenderQueueItem, 'comp' | 'output' | 'overflow'>,
  span: FrameSpan,
  subject: string,
  queued = true,
): void {
  const overwritten = overwrittenFootage(doc, item, span);
  if (overwritten)
    throw new EngineError(
      'bad_argument',
      `${subject} would write over "${overwritten.file}", which footage "${overwritten.footage.name}" (${overwritten.footage.id}) of the composition reads.`,
      (w) => `Render to another file or folder: ${queued ? w.newOutput : w.addOutput}.`,
    );
}

/**
 * The first file that rendering `item` (frames `span`) would write over among `written`, the files earlier
 * items of the same render wrote; null when none. An item that skips existing files (`skipExisting`) leaves
 * them as they are.
 */
export function rewrittenFile(
  item: Pick<RenderQueueItem, 'output' | 'skipExisting'>,
  span: FrameSpan,
  written: ReadonlySet<string>,
): string | null {
  if (item.skipExisting || !written.size) return null;
  if (!hasFrameField(item.output)) return written.has(item.output) ? item.output : null;
  const dir = dirname(item.output);
  for (const file of written) {
    if (dirname(file) !== dir) continue;
    const frame = frameOfName(item.output, basename(file));
    if (frame !== null && frame >= span.start && frame <= span.end) return file;
  }
  return null;
}

/**
 * The manifest of an earlier item of the same render that `item`'s would replace: two outputs of one folder
 * share a manifest name (`a_[##].png` and `a.[##].png` are both listed in `a.png.manifest.json`); null when none.
 * Items of one template (frame ranges split between items) share their manifest by design: not refused.
 */
export function rewrittenManifest(
  item: Pick<RenderQueueItem, 'output'>,
  written: ReadonlySet<string>,
): string | null {
  const manifest = manifestPathFor(item.output);
  if (!written.has(manifest)) return null;
  const dir = dirname(item.output);
  const sameTemplate = [...written].some(
    (file) =>
      file !== manifest &&
      dirname(file) === dir &&
      (hasFrameField(item.output) ? frameOfName(item.output, basename(file)) !== null : file === item.output),
  );
  return sameTemplate ? null : manifest;
}
