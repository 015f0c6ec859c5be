/**
 * What a render's workers get of its footage, all through the engine's ports so confinement applies: the bytes
 * of stills and image-sequence frames, and for video a descriptor opened (and checked) here that the workers'
 * ffmpeg decoders read through its childPath. The descriptors stay open until the item's cleanup closes them.
 */
import { dirname } from 'node:path';
import {
  EngineError,
  fsError,
  sequenceFrame,
  type EnginePorts,
  type FootageItem,
  type Project,
} from '../../engine/index.js';
import { findExecutable } from '../../node-io/search-path.js';
import { reachableFootage } from '../reachable-footage.js';
import { throwIfStopped } from './item-errors.js';
import type { WorkerInit } from './protocol.js';

export interface FootageInput {
  footage: WorkerInit['footage'];
  media: WorkerInit['media'];
}

/** The files one footage item is read from: a still's one file, every frame of a sequence. */
function filesOf(item: FootageItem): string[] {
  const seq = item.media?.kind === 'sequence' ? item.media.sequence : null;
  if (!seq) return [item.path];
  return Array.from({ length: seq.last - seq.first + 1 }, (_, i) =>
    sequenceFrame(seq.pattern, seq.first + i),
  );
}

/**
 * Reads and opens the footage of `compId`. `keep` is handed every opened media file, so the caller closes it
 * when the item ends (its cleanup stack), whether it finishes, fails or is cancelled.
 */
export async function footageInput(
  doc: Project,
  compId: string,
  ports: EnginePorts,
  ffmpeg: string | null,
  signal: AbortSignal,
  keep: (close: () => Promise<void>) => void,
): Promise<FootageInput> {
  const footage: WorkerInit['footage'] = [];
  const files: Array<[string, string]> = [];
  for (const item of reachableFootage(doc, [compId])) {
    if (item.media?.kind === 'audio') continue;
    if (item.media?.kind === 'video') {
      throwIfStopped(signal);
      const file = await ports.openMedia(item.path).catch((err: unknown) => {
        throw err instanceof EngineError ? err : fsError(err, item.path, 'read footage');
      });
      keep(() => file.close());
      files.push([item.path, file.childPath]);
      continue;
    }
    for (const path of filesOf(item)) {
      throwIfStopped(signal);
      const bytes = await ports.readFile(path).catch((err: unknown) => {
        throw err instanceof EngineError ? err : fsError(err, path, 'read footage');
      });
      footage.push([path, bytes]);
    }
  }
  const ffprobe = ffmpeg ? await findExecutable('ffprobe', dirname(ffmpeg)) : null;
  return { footage, media: { ffmpeg, ffprobe, files } };
}
