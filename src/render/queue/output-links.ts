/**
 * The footage check of output-overlap.ts, on the files the paths lead to. That check compares paths as
 * spelt, so an output reached through a linked folder (`/work/link/vo.wav`, `link` a symbolic link to the
 * footage's own folder) passed it, and the render's rename replaced the voice-over it was mixing: the
 * footage was gone and every later render read the render's own output. So before an item writes anything,
 * the output's folder (and its overflow folders) and each footage file are resolved (`realpath`) and
 * checked again. The output's own name is not followed: the rename replaces a link there, not what it
 * points to. Only hard links are left: a rename onto one name leaves the other's file as it was.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FootageItem, Project, RenderQueueItem } from '../../engine/index.js';
import { reachableFootage } from '../reachable-footage.js';
import { refuseFootageOverwrite } from './output-overlap.js';
import type { FrameSpan } from './plan.js';

/** `path` with every link resolved, or as it is where it cannot be (not there yet, unreadable). */
async function resolved(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/** `path` with the links of its folder resolved, its own name kept. */
async function inResolvedFolder(path: string): Promise<string> {
  return join(await resolved(dirname(path)), basename(path));
}

/** A footage item with its file (a sequence: its frames' folder) resolved. */
async function resolvedFootage(item: FootageItem): Promise<FootageItem> {
  const seq = item.media?.kind === 'sequence' ? item.media.sequence : null;
  if (!seq) return { ...item, path: await resolved(item.path) };
  // A frame may itself be a link, but a sequence's frames are read one by one: the folder is what is shared.
  const pattern = await inResolvedFolder(seq.pattern);
  return { ...item, path: pattern, media: { ...item.media!, sequence: { ...seq, pattern } } };
}

/**
 * Throws bad_argument, as refuseFootageOverwrite does, when rendering `item` would write over footage it
 * reads once links are followed; `subject` names the item in the message.
 */
export async function refuseLinkedFootageOverwrite(
  doc: Project,
  item: Pick<RenderQueueItem, 'comp' | 'output' | 'overflow'>,
  span: FrameSpan,
  subject: string,
): Promise<void> {
  const footage = new Map<string, FootageItem>();
  for (const f of reachableFootage(doc, [item.comp])) footage.set(f.id, await resolvedFootage(f));
  const output = await inResolvedFolder(item.output);
  const overflow = await Promise.all(item.overflow.map(async (o) => ({ ...o, dir: await resolved(o.dir) })));
  const real: Project = { ...doc, items: doc.items.map((i) => footage.get(i.id) ?? i) };
  refuseFootageOverwrite(real, { comp: item.comp, output, overflow }, span, subject);
}
