/**
 * What an item's sound is mixed from: the audible clips over its frames (src/render/audio/clips.ts), each file
 * opened through the engine's ports (openMedia: confined, checked at the open, never through a link; missing:
 * no_such_file). ffmpeg reads that open file (`/proc/<pid>/fd/N`), never the path again.
 */
import type { EnginePorts, Project } from '../../engine/index.js';
import { collectAudio, type AudioMix } from '../audio/clips.js';
import { openMix } from '../audio/open-mix.js';
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
  return (await openMix(doc, mix, ports, keep, 'fail')).mix;
}
