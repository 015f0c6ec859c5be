/**
 * What an item's sound is mixed from: the audible clips over its frames (src/render/audio/clips.ts), each file
 * opened through the engine's ports (openMedia: confined, checked at the open, never through a link; missing:
 * no_such_file). ffmpeg reads that open file (`/proc/<pid>/fd/N`), never the path again.
 */
import { EngineError, fsError, type EnginePorts, type Project } from '../../engine/index.js';
import { collectAudio, type AudioMix } from '../audio/clips.js';
import { missingFootage } from '../media/missing-footage.js';
import type { ItemPlan } from './plan.js';

/** The item's mix with every clip's path replaced by its opened file; `keep` gets each file's close. */
export async function soundInput(
  doc: Project,
  plan: ItemPlan,
  ports: EnginePorts,
  keep: (close: () => Promise<void>) => void,
): Promise<AudioMix> {
  const start = plan.frames[0]! / plan.frameRate;
  const mix = collectAudio(doc, plan.item.comp, start, plan.frames.length / plan.frameRate);
  const opened = new Map<string, string>();
  for (const path of new Set(mix.clips.map((c) => c.path))) {
    const file = await ports.openMedia(path).catch((err: unknown) => {
      if (err instanceof EngineError && err.code !== 'no_such_file') throw err;
      // Named as the footage it is, as a missing picture is (the person knows the item, not only the path).
      const item = doc.items.find((i) => i.type === 'footage' && i.path === path);
      if (item?.type === 'footage') throw missingFootage(item, path);
      throw err instanceof EngineError ? err : fsError(err, path, 'read sound from');
    });
    keep(() => file.close());
    opened.set(path, file.childPath);
  }
  return { ...mix, clips: mix.clips.map((c) => ({ ...c, path: opened.get(c.path)!, shown: c.path })) };
}
