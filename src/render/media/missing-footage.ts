/**
 * The one error for footage whose file cannot be read at its path (gone, moved, unreadable), wherever it is
 * found missing: a frame's picture, a render's sound, a decoder's open. It names the item, not only the path.
 * And the error of a file that stops decoding well before its end (cutShort).
 */
import { EngineError, fsError, type FootageItem } from '../../engine/core.js';

export function missingFootage(item: FootageItem, path = item.path): EngineError {
  // One frame of a sequence gone (a render of it interrupted, a file deleted by hand): the run is still where
  // the footage says, so the remedy is that frame, not a relink of the whole sequence.
  const frameOfRun = item.media?.kind === 'sequence' && path !== item.path;
  return new EngineError(
    'no_such_file',
    `Footage "${item.name}" (${item.id}) cannot be read from "${path}".`,
    frameOfRun
      ? 'That frame of the image sequence is gone: put it back (render or copy it again to that path), or relink the footage to a complete run of frames (footage.relink).'
      : 'Put the file back at that path, or point the footage at where it is now (footage.relink; in a project file, its "path").',
  );
}

/**
 * What a failed open or read of `path` is: missing (an engine no_such_file, or ENOENT) is missingFootage of its
 * item when there is one; any other engine error as it is; any other failure as fsError (`verb`: "read footage").
 */
export function footageFailure(
  item: FootageItem | undefined,
  path: string,
  err: unknown,
  verb: string,
): EngineError {
  const missing =
    err instanceof EngineError
      ? err.code === 'no_such_file'
      : (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
  if (missing && item) return missingFootage(item, path);
  return err instanceof EngineError ? err : fsError(err, path, verb);
}

/**
 * Past these, a frame asked after a file's last decodable one is not a last GOP shorter than its container
 * says (a frame or two), nor a duration read from a container whose sound outlasts its picture by a little
 * (a file without per-stream durations), but a file that stops early: a download cut short, a copy
 * interrupted. The time allowed is 0.25 s, or 5% of the declared duration up to 10 s.
 */
const CUT_SHORT_FRAMES = 3;
const cutShortSeconds = (duration: number) => Math.max(0.25, Math.min(0.05 * duration, 10));

/**
 * The error of frame `asked` of `item` when its file decodes only up to frame `end` (FrameStore.decodedEnd),
 * well before it; null when the frame is there (or a frame or two past a short last GOP, held).
 */
export function cutShort(
  item: FootageItem,
  timestamps: ArrayLike<number>,
  asked: number,
  end: number | undefined,
): EngineError | null {
  if (end === undefined || asked - end <= CUT_SHORT_FRAMES) return null;
  const [endTime, askedTime] = [timestamps[end] ?? 0, timestamps[asked] ?? 0];
  if (askedTime - endTime <= cutShortSeconds(item.media?.duration ?? 0)) return null;
  const s = (t: number) => `${Number(t.toFixed(3))} s`;
  const declared = item.media?.duration ? ` (${s(item.media.duration)})` : '';
  return new EngineError(
    'unsupported_format',
    `Footage "${item.name}" decodes only up to frame ${end} (${s(endTime)}) of the ${timestamps.length} its file declares${declared}; frame ${asked} (${s(askedTime)}) is asked: the file is damaged or cut short.`,
    `Replace it with a complete copy at its path and render again, or relink it to one (footage.relink), or show only its first ${s(endTime)} (layer.setTiming, layer.setTimeMap; in a project file, the layer's "outPoint").`,
  );
}
