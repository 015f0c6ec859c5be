/** The viewer's warning, in a person's words, for footage the Project panel marks missing or changed. */
import type { Project } from '../../../engine/model.js';
import { footageShown } from '../state/doc.js';

/**
 * The viewer's warning in plain words when the placeholder stands for footage the Project panel marks: which
 * file, why, and the button to use (the compositor's own words stay in the tooltip, and in an agent's preview).
 */
export function placeholderHint(
  doc: Project | null,
  compId: string,
  missing: readonly string[],
  changed: Readonly<Record<string, string>>,
): string | null {
  const shown = footageShown(doc, compId);
  const name = (id: string) => doc?.items.find((i) => i.id === id)?.name ?? id;
  const gone = missing.filter((id) => shown.has(id));
  const redone = Object.keys(changed).filter((id) => shown.has(id) && !gone.includes(id));
  const more = (n: number) => (n > 1 ? ` (and ${n - 1} more)` : '');
  if (redone.length)
    return `"${name(redone[0]!)}"${more(redone.length)} changed on disk, so a placeholder is shown: click Relink beside it in the Project panel, then Apply.`;
  // A sound file has no picture to stand in for: what is lost is its sound (the mix leaves it out).
  const sound = (id: string) => {
    const item = doc?.items.find((i) => i.id === id);
    return item?.type === 'footage' && item.media?.kind === 'audio';
  };
  if (!gone.length) return null;
  // Pictures and sounds apart: a missing clip has a placeholder, a missing sound file has its sound left out
  // (one sentence for both read as if the sound too were drawn as a placeholder).
  const pictures = gone.filter((id) => !sound(id));
  const sounds = gone.filter(sound);
  const told = [
    pictures.length
      ? `"${name(pictures[0]!)}"${more(pictures.length)} is missing, so a placeholder is shown`
      : '',
    sounds.length ? `"${name(sounds[0]!)}"${more(sounds.length)} is missing, so its sound is left out` : '',
  ].filter(Boolean);
  const each = told.length > 1 ? 'each' : 'it';
  return `${told.join(', and ')}: click Relink beside ${each} in the Project panel and give its new place.`;
}
