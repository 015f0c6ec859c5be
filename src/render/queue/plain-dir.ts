/**
 * The output directory of an unconfined render: reached by its path, as given. Nothing is verified (there are
 * no roots to stay inside); folders made for the render are remembered so a failed render removes exactly them.
 */
import { constants, promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import type { WriteDir } from '../../confinement/types.js';

/** Opens how a job reaches an output folder: by path (unconfined) or through a verified handle (confined). */
export type OpenWriteDir = (dir: string) => Promise<WriteDir>;

/** Creates `dir` (and missing parents) when absent and returns a path-based WriteDir for it. */
export const openPlainDir: OpenWriteDir = async (dir) => {
  const first = await fs.mkdir(dir, { recursive: true }).catch(async (err: unknown) => {
    throw await realMkdirError(err);
  });
  // Folders this render created, deepest first: removed on cleanup only if they are empty again.
  const made: string[] = [];
  if (first) {
    for (let d = dir; ; d = dirname(d)) {
      made.push(d);
      if (d === first || dirname(d) === d) break;
    }
  }
  return {
    real: dir,
    base: dir,
    sharedBase: dir,
    verify: () => Promise.resolve(),
    async removeCreated() {
      for (const d of made.splice(0)) await fs.rmdir(d).catch(() => undefined);
    },
    close: () => Promise.resolve(),
  };
};

/**
 * Recursive mkdir on a read-only volume can fail with ENOENT; the real reason is the nearest existing
 * ancestor's, so ask it (access W_OK gives EROFS or EACCES there).
 */
export async function realMkdirError(err: unknown): Promise<unknown> {
  const errno = err as NodeJS.ErrnoException | undefined;
  if (errno?.code !== 'ENOENT' || errno.syscall !== 'mkdir' || !errno.path) return err;
  for (let dir = dirname(errno.path); ; dir = dirname(dir)) {
    const exists = await fs.lstat(dir).then(
      () => true,
      () => false,
    );
    if (exists)
      return fs.access(dir, constants.W_OK).then(
        () => err,
        (e: unknown) => e,
      );
    if (dirname(dir) === dir) return err;
  }
}
