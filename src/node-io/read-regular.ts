/**
 * Reading a file an agent or a project names: only regular files, and only up to a size bound. Everything the
 * engine reads (imports, footage, project files, scripts) comes through here, confined or not.
 *
 * Security/liveness: a FIFO would block an ordinary open or read forever (and with it every later call on the
 * connection), and /dev/zero would fill memory. The file is opened non-blocking, checked with fstat on the
 * opened descriptor (no race with a swap after a stat by name), and read only when it is a regular file of a
 * bounded size.
 */
import { constants, promises as fs } from 'node:fs';
import { EngineError } from '../engine/errors.js';

/** The largest file the engine reads whole: well above any footage still or project, far below Node's limits. */
export const MAX_READ_BYTES = 512 * 1024 * 1024;

export interface ReadOptions {
  /** Extra open flags (the confined reader adds O_NOFOLLOW). */
  flags?: number;
  maxBytes?: number;
  /** The path as the caller gave it, for messages (default: the path read). */
  shownPath?: string;
  /** Runs on the opened descriptor before anything is read (the confined reader proves where it points). */
  verify?: (handle: fs.FileHandle) => Promise<void>;
}

/**
 * Opens `path` without blocking and refuses anything but a regular file within the bound; the caller owns (and
 * closes) the handle. Media files, which child processes read by descriptor, are opened this way.
 */
export async function openRegularFile(path: string, options: ReadOptions = {}): Promise<fs.FileHandle> {
  const shown = options.shownPath ?? path;
  const maxBytes = options.maxBytes ?? MAX_READ_BYTES;
  const handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.flags ?? 0));
  try {
    await options.verify?.(handle);
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new EngineError(
        'bad_argument',
        `${JSON.stringify(shown)} is not a regular file (it is ${kindOf(stat)}); nothing was read.`,
        'Give the path of a regular file (an image, a project, a script); for footage, put a file back at that path or relink the footage to one (footage.relink).',
      );
    }
    if (stat.size > maxBytes) {
      throw new EngineError(
        'bad_argument',
        `${JSON.stringify(shown)} is ${stat.size} bytes; files read whole may be at most ${maxBytes} bytes.`,
        'Use a smaller file (e.g. a downscaled image).',
      );
    }
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** Opens `path` as openRegularFile does and reads it whole. */
export async function readRegularFile(path: string, options: ReadOptions = {}): Promise<Buffer> {
  const handle = await openRegularFile(path, options);
  try {
    return await handle.readFile();
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function kindOf(stat: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
