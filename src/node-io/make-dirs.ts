/**
 * Creates a folder and its missing parents one level at a time. Node's `mkdir({recursive: true})` spins forever
 * where the kernel refuses creation with ENOENT (under /proc) and reports ENOENT for a read-only volume; creating
 * each level ourselves gives the real error of the level that failed (EROFS, EACCES, ENOTDIR, ENOENT) and never loops.
 */
import { promises as fs } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `dir`; returns the folders it created, outermost first (empty when `dir` existed). */
export async function makeDirs(dir: string, mode = 0o777): Promise<string[]> {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    const st = await fs.stat(d).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (st) {
      if (!st.isDirectory()) {
        throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${d}'`), {
          code: 'ENOTDIR',
          path: d,
          syscall: 'mkdir',
        });
      }
      break;
    }
    missing.push(d);
    if (dirname(d) === d) break;
  }
  const made: string[] = [];
  for (const d of missing.reverse()) {
    try {
      await fs.mkdir(d, { mode });
      made.push(d);
    } catch (err) {
      // Someone else made it meanwhile: fine, it is not ours to remove.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return made;
}
