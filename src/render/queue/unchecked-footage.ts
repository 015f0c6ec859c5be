/**
 * A render checks each video and sound file against what its import recorded (footage-unchanged.ts,
 * sound-unchanged.ts) with ffprobe, while the decoders need ffmpeg alone. Where ffmpeg is found and ffprobe is
 * not, the render goes on (the picture and sound are right unless a file changed), but it says the check did not
 * happen: a pipeline must not take an unchecked render for a checked one. `inspect --strict` refuses instead.
 */
import { dirname } from 'node:path';
import type { Project } from '../../engine/index.js';
import { findExecutable } from '../../node-io/search-path.js';
import { reachableFootage } from '../reachable-footage.js';

/** The warning for `compId`'s render, or null when every file it reads was checked (or there is none). */
export async function uncheckedFootageWarning(
  doc: Project,
  compId: string,
  ffmpeg: string | null,
  sound: boolean,
): Promise<string | null> {
  if (!ffmpeg) return null;
  const media = reachableFootage(doc, [compId]).filter(
    (f) => f.media?.kind === 'video' || (sound && f.media?.kind === 'audio'),
  );
  if (!media.length || (await findExecutable('ffprobe', dirname(ffmpeg)))) return null;
  const named = media.slice(0, 3).map((f) => `"${f.name}" (${f.id})`);
  const more = media.length > named.length ? ` and ${media.length - named.length} more` : '';
  return (
    `Footage ${named.join(', ')}${more} was not checked against what its import recorded: ffprobe was not found ` +
    'beside ffmpeg or on PATH. A file changed since (re-exported at another rate, size or length) renders as it ' +
    'is now. Install ffprobe (part of ffmpeg: apt-get install ffmpeg) for the check.'
  );
}
