/**
 * A mix's files opened through the engine's ports (openMedia: confined, checked at the open, never through a
 * link), for ffmpeg to read as open files (`/proc/<pid>/fd/N`), never by path again.
 */
import type { EnginePorts, FootageItem, Project } from '../../engine/index.js';
import { footageFailure } from '../media/missing-footage.js';
import type { AudioMix } from './clips.js';

/**
 * `mix` with every clip's path replaced by its file opened through `ports`; `keep` gets each file's close. A
 * missing file fails as its footage (`fail`, a render), or its clips are left out with a warning naming it
 * (`skip`, a preview: as a missing picture is a placeholder there).
 */
export async function openMix(
  doc: Project,
  mix: AudioMix,
  ports: EnginePorts,
  keep: (close: () => Promise<void>) => void,
  missing: 'fail' | 'skip',
): Promise<{ mix: AudioMix; warnings: string[] }> {
  const opened = new Map<string, string>();
  const warnings: string[] = [];
  for (const path of new Set(mix.clips.map((c) => c.path))) {
    const file = await ports.openMedia(path).catch((err: unknown) => {
      // Named as the footage it is, as a missing picture is (the person knows the item, not only the path).
      const item = doc.items.find((i): i is FootageItem => i.type === 'footage' && i.path === path);
      const failure = footageFailure(item, path, err, 'read sound from');
      // Only a missing file is left out of a preview; anything else (outside the roots) fails it.
      if (missing === 'fail' || failure.code !== 'no_such_file') throw failure;
      warnings.push(`${failure.message} Its sound is left out.`);
      return null;
    });
    if (!file) continue;
    keep(() => file.close());
    opened.set(path, file.childPath);
  }
  const clips = mix.clips.flatMap((c) => {
    const path = opened.get(c.path);
    return path === undefined ? [] : [{ ...c, path, shown: c.path }];
  });
  return { mix: { ...mix, clips }, warnings };
}
