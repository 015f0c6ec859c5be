/**
 * The final open, where a check made earlier could have gone stale: somebody may have swapped a directory
 * or file for a symlink out of the roots between the check and the open (TOCTOU).
 *
 * Linux: a directory is opened once and every later step goes through `/proc/self/fd/N/…`, which the kernel
 * resolves to that very directory inode, like openat/renameat. We then ask the kernel where the opened
 * file or directory really is (readlink of the fd) and refuse when that is outside the roots.
 * Elsewhere: the same steps by path, with the directory's realpath and inode re-verified right before the
 * rename, and the opened file's inode compared with what the checked path holds now.
 */
import { constants, promises as fs, realpathSync, type Stats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { EngineError, fsError } from '../engine/index.js';
import { writeAtomicIn } from '../node-io/atomic-write.js';
import { openRegularFile, readRegularFile } from '../node-io/read-regular.js';
import { mediaFileOf, MAX_MEDIA_BYTES } from '../node-io/media-file.js';
import type { MediaFile } from '../engine/index.js';
import { CheckedDir, DEFAULT_IO, swapped, type SafeIoOptions } from './checked-dir.js';
import { isInside } from './path-resolve.js';

export { DEFAULT_IO, type SafeIoOptions } from './checked-dir.js';

/** Where the kernel says an open fd is, or null when it cannot say (no /proc). */
async function fdPath(fd: number, io: SafeIoOptions): Promise<string | null> {
  if (!io.procFd) return null;
  return fs.readlink(`${io.procFd}/${fd}`);
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Reads `real` (a path already checked and resolved) and proves the opened file is inside `roots`.
 * `shownPath` is the path as the agent gave it, for messages.
 */
/** The check readConfined and openMediaConfined make on the opened descriptor: it must be inside `roots`. */
function insideRoots(
  real: string,
  roots: readonly string[],
  shownPath: string,
  param: string,
  io: SafeIoOptions,
) {
  return async (handle: fs.FileHandle) => {
    const at = await fdPath(handle.fd, io);
    if (at !== null) {
      if (!roots.some((root) => isInside(at, root))) throw swapped(shownPath, param);
    } else if (!sameFile(await handle.stat(), await fs.stat(real)) || realpathSync.native(real) !== real) {
      throw swapped(shownPath, param);
    }
  };
}

/**
 * Opens `real` (checked and resolved) for child processes to read, proving the opened file is inside `roots`;
 * they read it through the descriptor, so a swap after this open cannot redirect them.
 */
export async function openMediaConfined(
  real: string,
  roots: readonly string[],
  shownPath: string,
  param: string,
  io: SafeIoOptions = DEFAULT_IO,
): Promise<MediaFile> {
  try {
    const handle = await openRegularFile(real, {
      flags: constants.O_NOFOLLOW,
      shownPath,
      maxBytes: MAX_MEDIA_BYTES,
      verify: insideRoots(real, roots, shownPath, param, io),
    });
    return mediaFileOf(handle, real);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw swapped(shownPath, param);
    throw err instanceof EngineError ? err : fsError(err, shownPath, 'read');
  }
}

export async function readConfined(
  real: string,
  roots: readonly string[],
  shownPath: string,
  param: string,
  io: SafeIoOptions = DEFAULT_IO,
): Promise<Buffer> {
  try {
    // Security: O_NOFOLLOW refuses a final component swapped for a symlink after the check; the shared reader
    // opens non-blocking and reads only a regular file of bounded size (no FIFO hang, no endless /dev/zero).
    return await readRegularFile(real, {
      flags: constants.O_NOFOLLOW,
      shownPath,
      verify: insideRoots(real, roots, shownPath, param, io),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw swapped(shownPath, param);
    throw err instanceof EngineError ? err : fsError(err, shownPath, 'read');
  }
}

/**
 * Writes `data` to `real` atomically (src/node-io/atomic-write.ts) through its checked directory: the temporary
 * is created (O_EXCL|O_NOFOLLOW) and renamed through the directory's descriptor, so a symlink at the target is
 * replaced, never followed, and the directory is verified again right before the rename.
 */
export async function writeConfined(
  real: string,
  roots: readonly string[],
  data: string | Uint8Array,
  shownPath: string,
  param: string,
  io: SafeIoOptions = DEFAULT_IO,
): Promise<void> {
  const dir = await CheckedDir.open(dirname(real), {
    inside: (p) => roots.some((root) => isInside(p, root)),
    shownPath,
    param,
    io,
  });
  try {
    // Security: CheckedDir.verify runs right before the rename; on Linux the rename goes through the fd anyway.
    await writeAtomicIn(dir, basename(real), data);
  } catch (err) {
    throw err instanceof EngineError ? err : fsError(err, shownPath, 'write');
  } finally {
    await dir.close();
  }
}
