/**
 * The one error for footage whose file cannot be read at its path (gone, moved, unreadable), wherever it is
 * found missing: a frame's picture, a render's sound, a decoder's open. It names the item, not only the path.
 */
import { EngineError, fsError, type FootageItem } from '../../engine/core.js';

export function missingFootage(item: FootageItem, path = item.path): EngineError {
  return new EngineError(
    'no_such_file',
    `Footage "${item.name}" (${item.id}) cannot be read from "${path}".`,
    'Put the file back at that path, or point the footage at where it is now (footage.relink; in a project file, its "path").',
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
