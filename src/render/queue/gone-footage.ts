/**
 * Every footage file a render needs that is gone, told at once. The render fails on the first file it cannot
 * open; with a clip and its voice-over both moved, an agent relinked one, rendered again and failed on the
 * other. So before anything opens, the files are looked for, and two or more gone fail the item with one
 * no_such_file naming them all (one gone fails on its own, as before, with the reader's own words).
 */
import { EngineError, type EnginePorts, type FootageItem, type Project } from '../../engine/index.js';
import { reachableFootage } from '../reachable-footage.js';

/** Throws no_such_file naming each footage item of `compId` whose file is not there, when two or more are. */
export async function refuseGoneFootage(
  doc: Project,
  compId: string,
  ports: Pick<EnginePorts, 'exists'>,
  reads: { picture: boolean; sound: boolean },
): Promise<void> {
  const sounds = (f: FootageItem) => f.media?.kind === 'audio' || Boolean(f.media?.audio);
  const needed = reachableFootage(doc, [compId]).filter((f) =>
    f.media?.kind === 'audio' ? reads.sound : reads.picture || (reads.sound && sounds(f)),
  );
  // Whole files only: a sequence is looked for by its first frame (a frame gone from the middle is told when read).
  const gone = [];
  for (const item of needed) if (!(await ports.exists(item.path).catch(() => true))) gone.push(item);
  if (gone.length < 2) return;
  throw new EngineError(
    'no_such_file',
    `${gone.length} footage files this render reads are gone: ${gone.map((f) => `"${f.name}" (${f.id}) at "${f.path}"`).join(', ')}.`,
    // Item errors reach both surfaces as plain text: each one's way is named.
    'Put them back, or relink each (footage.relink {footage, path}, then save the project); doc_inspect marks every one missing: true (at the CLI, effectcraft-cli inspect PROJECT --strict lists them).',
  );
}
