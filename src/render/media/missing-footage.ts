/**
 * The one error for footage whose file cannot be read at its path (gone, moved, unreadable), wherever it is
 * found missing: a frame's picture, a render's sound, a decoder's open. It names the item, not only the path.
 */
import { EngineError, type FootageItem } from '../../engine/core.js';

export function missingFootage(item: FootageItem, path = item.path): EngineError {
  return new EngineError(
    'no_such_file',
    `Footage "${item.name}" (${item.id}) cannot be read from "${path}".`,
    'Put the file back at that path, or point the footage at where it is now (footage.relink; in a project file, its "path").',
  );
}
