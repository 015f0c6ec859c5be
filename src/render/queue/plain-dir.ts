/**
 * The output directory of an unconfined render: reached by its path, as given. Nothing is verified (there are
 * no roots to stay inside); folders made for the render are remembered so a failed render removes exactly them.
 */
import { promises as fs } from 'node:fs';
import { makeDirs } from '../../node-io/make-dirs.js';
import type { WriteDir } from '../../confinement/types.js';

/** Opens how a job reaches an output folder: by path (unconfined) or through a verified handle (confined). */
export type OpenWriteDir = (dir: string) => Promise<WriteDir>;

/** Creates `dir` (and missing parents) when absent and returns a path-based WriteDir for it. */
export const openPlainDir: OpenWriteDir = async (dir) => {
  // Folders this render created, deepest first: removed on cleanup only if they are empty again.
  const made = (await makeDirs(dir)).reverse();
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
