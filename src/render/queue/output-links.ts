/**
 * The footage check of output-overlap.ts, on the files the paths lead to. That check compares paths as
 * spelt, so an output reached through a linked folder (`/work/link/vo.wav`, `link` a symbolic link to the
 * footage's own folder) passed it, and the render's rename replaced the voice-over it was mixing: the
 * footage was gone and every later render read the render's own output. So before an item writes anything,
 * the output's folder (and its overflow folders) and each footage file are resolved (`realpath`) and
 * checked again. The output's own name is not followed: the rename replaces a link there, not what it
 * points to. Only hard links are left: a rename onto one name leaves the other's file as it was. A saved
 * frame (frame.save, frame.preview's output, the CLI's still) is one such output too.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FootageItem, Project, RenderQueueItem } from '../../engine/index.js';
import { reachableFootage } from '../reachable-footage.js';
import { footageAtFile, refuseFootageOverwrite } from './output-overlap.js';
import { refuseRewrite, type FrameSpan } from './plan.js';

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

/** `doc` with the footage `compId` draws resolved to the files its paths lead to. */
async function withResolvedFootage(doc: Project, compId: string): Promise<Project> {
  const footage = new Map<string, FootageItem>();
  for (const f of reachableFootage(doc, [compId])) footage.set(f.id, await resolvedFootage(f));
  return { ...doc, items: doc.items.map((i) => footage.get(i.id) ?? i) };
}

/**
 * Throws bad_argument, as planItem does, when rendering `item` would write over footage it reads, or over a
 * file an earlier item of the same render wrote (`written`, with its folders resolved too: job.ts), once links
 * are followed.
 */
export async function refuseLinkedOverwrite(
  doc: Project,
  item: RenderQueueItem,
  span: FrameSpan,
  written: ReadonlySet<string> = new Set(),
): Promise<void> {
  const output = await inResolvedFolder(item.output);
  const overflow = await Promise.all(item.overflow.map(async (o) => ({ ...o, dir: await resolved(o.dir) })));
  const real = await withResolvedFootage(doc, item.comp);
  refuseFootageOverwrite(real, { comp: item.comp, output, overflow }, span, `Queue item "${item.id}"`);
  refuseRewrite({ ...item, output }, span, written);
}

/** `paths` with the links of their folders resolved (each folder once), their names kept. */
export async function inResolvedFolders(paths: readonly string[]): Promise<string[]> {
  const folders = new Map<string, Promise<string>>();
  return Promise.all(
    paths.map(async (path) => {
      const dir = dirname(path);
      if (!folders.has(dir)) folders.set(dir, resolved(dir));
      return join(await folders.get(dir)!, basename(path));
    }),
  );
}

/**
 * The footage `compId` draws whose file writing `path` would replace, links followed (frame.save,
 * frame.preview's output); null when none.
 */
export async function footageReplacedBy(
  doc: Project,
  compId: string,
  path: string,
): Promise<FootageItem | null> {
  const lexical = footageAtFile(doc, compId, path);
  if (lexical) return lexical;
  const real = footageAtFile(await withResolvedFootage(doc, compId), compId, await inResolvedFolder(path));
  // Named as the document has it, not as the links resolved it.
  return real ? (doc.items.find((i) => i.id === real.id) as FootageItem) : null;
}
