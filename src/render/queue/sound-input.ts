/**
 * What an item's sound is mixed from: the audible clips over its frames (src/render/audio/clips.ts), each file
 * opened through the engine's ports (openMedia: confined, checked at the open, never through a link; missing:
 * no_such_file) and probed again (changed since its import: unsupported_format). ffmpeg reads that open file
 * (`/proc/<pid>/fd/N`), never the path again.
 */
import { dirname } from 'node:path';
import type { EnginePorts, Project } from '../../engine/index.js';
import { findExecutable } from '../../node-io/search-path.js';
import { collectAudio, type AudioMix } from '../audio/clips.js';
import { openMix } from '../audio/open-mix.js';
import type { ItemPlan } from './plan.js';

/** The audible clips over the item's frames, by their footage paths (not opened). */
export function itemMix(doc: Project, plan: ItemPlan): AudioMix {
  const start = plan.frames[0]! / plan.frameRate;
  return collectAudio(doc, plan.item.comp, start, plan.frames.length / plan.frameRate);
}

/**
 * The item's mix with every clip's path replaced by its opened file; `keep` gets each file's close. `checked`
 * settles once each file is known to be the one its footage item recorded (with the ffprobe beside `ffmpeg`),
 * or rejects naming what changed: the item awaits it while its workers and encoder start.
 */
export async function soundInput(
  doc: Project,
  plan: ItemPlan,
  ports: EnginePorts,
  ffmpeg: string | null,
  keep: (close: () => Promise<void>) => void,
): Promise<{ mix: AudioMix; checked: Promise<void> }> {
  const mix = itemMix(doc, plan);
  const ffprobe = ffmpeg ? await findExecutable('ffprobe', dirname(ffmpeg)) : null;
  const opened = await openMix(doc, mix, ports, keep, 'fail', ffprobe);
  return { mix: opened.mix, checked: opened.checked };
}
