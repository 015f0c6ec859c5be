/**
 * What a render's workers get of its footage, all through the engine's ports so confinement applies: the bytes
 * of stills up front; image-sequence frames on request, one at a time as a worker draws them (a sequence may be
 * thousands of large files: reading them all first would hold them all in memory), and only paths of the
 * sequences the composition shows; and for video a descriptor opened (and checked) here that the workers'
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
import { checkUnchanged } from '../media/footage-unchanged.js';
import { footageFailure } from '../media/missing-footage.js';
import { reachableFootage } from '../reachable-footage.js';
import { throwIfStopped } from './item-errors.js';
import type { WorkerInit } from './protocol.js';

export interface FootageInput {
  footage: WorkerInit['footage'];
  media: WorkerInit['media'];
  /**
   * Settles once every video file is known to be the one its footage item describes (footage-unchanged.ts);
   * rejects with unsupported_format otherwise. The job awaits it with the workers' start, before any frame.
   */
  checked: Promise<void>;
  /** Reads one frame file of a sequence the composition shows, for a worker that asks; other paths are refused. */
  readSequenceFrame(path: string): Promise<Uint8Array>;
}

/** Every frame file of a sequence. */
export function sequenceFiles(item: FootageItem): string[] {
  const seq = item.media?.sequence;
  if (!seq) return [];
  return Array.from({ length: seq.last - seq.first + 1 }, (_, i) =>
    sequenceFrame(seq.pattern, seq.first + i),
  );
}

const readFootage = (ports: EnginePorts, path: string) =>
  ports.readFile(path).catch((err: unknown) => {
    throw err instanceof EngineError ? err : fsError(err, path, 'read footage');
  });

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
  const frames = new Set<string>();
  const ffprobe = ffmpeg ? await findExecutable('ffprobe', dirname(ffmpeg)) : null;
  const checks: Promise<void>[] = [];
  for (const item of reachableFootage(doc, [compId])) {
    if (item.media?.kind === 'audio') continue;
    if (item.media?.kind === 'video') {
      throwIfStopped(signal);
      const file = await ports.openMedia(item.path).catch((err: unknown) => {
        throw footageFailure(item, item.path, err, 'read footage');
      });
      keep(() => file.close());
      files.push([item.path, file.childPath]);
      // Checked here, once, while the workers start: each worker's first decoder waited for its own ffprobe
      // (~60 ms before a render's first frame).
      if (ffprobe) {
        const check = checkUnchanged(ffprobe, file.childPath, item);
        // Handled at once: when a later file cannot be opened this function throws before `checked` exists, the
        // item's cleanup closes the descriptor under this probe, and its failure was an unhandled rejection that
        // ended the process (the MCP server with its unsaved document) after the render had reported the file.
        check.catch(() => undefined);
        checks.push(check);
      }
      continue;
    }
    if (item.media?.kind === 'sequence') {
      for (const path of sequenceFiles(item)) frames.add(path);
      continue;
    }
    throwIfStopped(signal);
    footage.push([
      item.path,
      await ports.readFile(item.path).catch((err: unknown) => {
        throw footageFailure(item, item.path, err, 'read footage');
      }),
    ]);
  }
  const checked = Promise.all(checks).then(() => undefined);
  // Awaited by the job; a failure before then is not an unhandled rejection.
  checked.catch(() => undefined);
  return {
    footage,
    media: { ffmpeg, ffprobe, files, checked: ffprobe !== null },
    checked,
    async readSequenceFrame(path) {
      // A worker names only files of the sequences it draws: anything else is not its to read.
      if (!frames.has(path))
        throw new EngineError(
          'bad_argument',
          `"${path}" is not a frame of footage this render shows.`,
          'Render again; if it repeats, report it.',
        );
      return readFootage(ports, path);
    },
  };
}
