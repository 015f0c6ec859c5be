/**
 * Before a chunk renders, its worker checks that it can read every file the item reads: the footage its
 * composition shows (through precomps), every frame of an image sequence, sound files, and the files of
 * footage props. Locally, a missing sequence frame fails the render only when that frame is drawn; on a
 * cluster, the usual cause is a worker that does not mount the shared storage at the same path, so the error
 * names the file and this worker, and says so.
 */
import { open } from 'node:fs/promises';
import {
  EngineError,
  footageProps,
  type ErrorInfo,
  type FootageItem,
  type Project,
  type RenderQueueItem,
} from '../../engine/index.js';
import { checkSoundUnchanged, playedStreams } from '../audio/sound-unchanged.js';
import { probeMedia } from '../media/probe.js';
import { reachableFootage } from '../reachable-footage.js';
import { sequenceFiles } from '../queue/footage-input.js';
import { planItem } from '../queue/plan.js';
import { itemMix } from '../queue/sound-input.js';

/** Every file an item of `doc` reads, each once. */
export function filesRead(doc: Project, item: RenderQueueItem): string[] {
  const files = new Set<string>();
  for (const footage of reachableFootage(doc, [item.comp])) {
    const frames = sequenceFiles(footage);
    if (frames.length) frames.forEach((f) => files.add(f));
    else files.add(footage.path);
  }
  const comp = doc.items.find((i) => i.id === item.comp);
  if (comp?.type === 'composition' && item.props) footageProps(comp, item.props).forEach((f) => files.add(f));
  return [...files];
}

/** Files named in one error at most; the count says how many in all. */
const MAX_NAMED = 5;

/**
 * null when this process can open every file `item` reads for reading (opened, not only stat'ed: a file may
 * exist and be unreadable); else one error naming those it cannot (all of them, up to MAX_NAMED: a project whose
 * footage folder is missing named one file of many, and a retry another).
 */
export async function unreadableFootage(doc: Project, item: RenderQueueItem): Promise<ErrorInfo | null> {
  const failed: Array<{ path: string; code: string | undefined }> = [];
  for (const path of filesRead(doc, item)) {
    try {
      await (await open(path, 'r')).close();
    } catch (err) {
      failed.push({ path, code: (err as NodeJS.ErrnoException).code });
    }
  }
  if (!failed.length) return null;
  const why = (code: string | undefined) =>
    code === 'ENOENT' || code === 'ENOTDIR'
      ? 'no such file or directory'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : (code ?? 'error');
  const missing = failed.every((f) => f.code === 'ENOENT' || f.code === 'ENOTDIR');
  const named = failed.slice(0, MAX_NAMED).map((f) => `"${f.path}" (${why(f.code)})`);
  const more = failed.length > MAX_NAMED ? ` and ${failed.length - MAX_NAMED} more` : '';
  return {
    code: missing ? 'no_such_file' : 'io_error',
    message:
      failed.length === 1
        ? `Cannot read footage "${failed[0]!.path}" on this worker: ${why(failed[0]!.code)}.`
        : `Cannot read ${failed.length} footage files on this worker: ${named.join(', ')}${more}.`,
    remediation:
      'Put the footage on storage every worker mounts at the same path as the machine that renders (an NFS or SMB share), or stop the workers that cannot read it. If the files are missing on the rendering machine too, put them back or relink the footage.',
  };
}

/**
 * null when every sound file the item mixes is still the one its footage item recorded (audio/sound-unchanged.ts);
 * else what changed. A video item's chunks render silent and its sound is mixed at the assembly: checked here,
 * before a chunk renders, a changed file fails the item at once instead of after every frame is drawn.
 * `ffprobe` null (not installed beside ffmpeg) skips the check, as a local render does.
 */
export async function changedSoundFile(
  doc: Project,
  item: RenderQueueItem,
  ffprobe: string | null,
): Promise<ErrorInfo | null> {
  if (!ffprobe) return null;
  try {
    const plan = planItem(doc, item);
    if (!plan.sound) return null;
    for (const [path, streams] of playedStreams(itemMix(doc, plan))) {
      const footage = doc.items.find((i): i is FootageItem => i.type === 'footage' && i.path === path);
      if (footage) await checkSoundUnchanged((o) => probeMedia(ffprobe, path, path, o), footage, streams);
    }
  } catch (err) {
    if (err instanceof EngineError) return err.toInfo();
    throw err;
  }
  return null;
}
