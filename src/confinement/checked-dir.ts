/**
 * A directory opened once and verified, reached afterwards only through its descriptor: the shared core of
 * every confined write (one-off saves in `safe-io.ts`, render outputs through `openWriteDir`).
 *
 * Linux: `/proc/self/fd/N/name` makes the kernel resolve `name` inside that very directory inode (the effect
 * of openat/renameat), so a directory swapped for a symlink after the check cannot redirect a create or a
 * rename. `verify` asks the kernel where the opened directory is now (readlink of the fd) and refuses unless
 * it is still at the checked real path, inside the roots. Elsewhere (no /proc) the same steps go by path and
 * `verify` re-checks the path's realpath and inode against the opened directory.
 */
import { constants, existsSync, promises as fs, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { EngineError, fsError } from '../engine/index.js';
import type { WriteDir } from './types.js';

/** How the final open reaches the kernel; tests pass `{ procFd: null }` to exercise the portable path. */
export interface SafeIoOptions {
  /** `/proc/self/fd` where it exists (Linux), else null. */
  procFd: string | null;
}

export const DEFAULT_IO: SafeIoOptions = {
  procFd: existsSync('/proc/self/fd') ? '/proc/self/fd' : null,
};

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The refusal when a checked path changed under us; never says where a link now points. */
export function swapped(path: string, param: string): EngineError {
  return new EngineError(
    'path_outside_roots',
    `"${param}": ${JSON.stringify(path)} changed while it was being opened (a symbolic link was swapped in); refused.`,
    'Use a path inside the roots that is not being replaced while the command runs.',
  );
}

/** What a checked directory is verified against, and how refusals name it. */
export interface DirCheck {
  /** true when a real path may be written (inside a write root; always true when not confined). */
  inside(real: string): boolean;
  shownPath: string;
  param: string;
  io: SafeIoOptions;
}

export class CheckedDir implements WriteDir {
  readonly base: string;
  readonly sharedBase: string;
  readonly real: string;
  readonly #handle: fs.FileHandle;
  readonly #opened: Stats;
  readonly #check: DirCheck;
  // Directories this open created (deepest last), each with the still-open parent it was made in.
  readonly #created: Created[] = [];
  // Those parents, closed with this directory: kept apart from #created, which removeCreated empties first
  // (a failed render removes its folders, then closes; the parents' descriptors must not be forgotten).
  readonly #parents = new Set<CheckedDir>();

  private constructor(real: string, handle: fs.FileHandle, opened: Stats, check: DirCheck) {
    this.real = real;
    this.#handle = handle;
    this.#opened = opened;
    this.#check = check;
    const proc = check.io.procFd;
    this.base = proc ? `${proc}/${handle.fd}` : real;
    // Another process (ffmpeg) has its own /proc/self: it reaches our descriptor through our pid.
    this.sharedBase = proc ? `/proc/${process.pid}/fd/${handle.fd}` : real;
  }

  /**
   * Opens `real` (an already checked, resolved path) without following a link at any step we control and
   * verifies it. `at` is the parent to open it through (a name then), else the path is opened as is.
   */
  static async open(
    real: string,
    check: DirCheck,
    at?: { parent: CheckedDir; name: string },
  ): Promise<CheckedDir> {
    const path = at ? join(at.parent.base, at.name) : real;
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path, DIR_FLAGS);
    } catch (err) {
      // Linux reports a symlink opened with O_DIRECTORY|O_NOFOLLOW as ENOTDIR, others as ELOOP.
      const isLink = await fs.lstat(path).then(
        (st) => st.isSymbolicLink(),
        () => false,
      );
      throw isLink || (err as NodeJS.ErrnoException).code === 'ELOOP'
        ? swapped(check.shownPath, check.param)
        : fsError(err, check.shownPath, 'write');
    }
    const dir = new CheckedDir(real, handle, await handle.stat(), check);
    try {
      await dir.verify();
    } catch (err) {
      await dir.close();
      throw err;
    }
    return dir;
  }

  /**
   * Opens `real`, creating each missing directory under its verified parent (mkdir never follows a link at
   * the new name, and the new directory is opened with O_NOFOLLOW). `real` must be checked and resolved;
   * `existing` is its longest prefix that exists.
   */
  static async openCreating(real: string, existing: string, check: DirCheck): Promise<CheckedDir> {
    let dir = await CheckedDir.open(existing, check);
    const created: Created[] = [];
    try {
      for (const name of real.slice(existing.length).split('/').filter(Boolean)) {
        const made = await fs.mkdir(join(dir.base, name)).then(
          () => true,
          (err: NodeJS.ErrnoException) => {
            // Somebody made it meanwhile: fine if it is a real directory (the open below refuses a link).
            if (err.code === 'EEXIST') return false;
            throw fsError(err, check.shownPath, 'create the folder');
          },
        );
        // A parent we created in stays open until close: cleanup removes the new folder through it.
        const entry: Created = { parent: dir, name, made: null };
        if (made) created.push(entry);
        const child = await CheckedDir.open(join(dir.real, name), check, { parent: dir, name });
        if (made) entry.made = child.#opened;
        else await dir.close();
        dir = child;
      }
    } catch (err) {
      await removeCreated(created);
      await Promise.all(
        [...new Set([dir, ...created.map((c) => c.parent)])].map((d) =>
          d.#handle.close().catch(() => undefined),
        ),
      );
      throw err;
    }
    dir.#created.push(...created);
    for (const c of created) dir.#parents.add(c.parent);
    return dir;
  }

  async verify(): Promise<void> {
    const { inside, shownPath, param, io } = this.#check;
    if (io.procFd) {
      const at = await fs.readlink(`${io.procFd}/${this.#handle.fd}`).catch(() => null);
      // Moved, deleted ("… (deleted)") or out of the roots: the checked directory is not where it was.
      if (at !== this.real || !inside(at)) throw swapped(shownPath, param);
      return;
    }
    let now: Stats;
    try {
      if (realpathSync.native(this.real) !== this.real || !inside(this.real)) throw swapped(shownPath, param);
      now = await fs.stat(this.real);
    } catch (err) {
      throw err instanceof EngineError ? err : swapped(shownPath, param);
    }
    if (now.dev !== this.#opened.dev || now.ino !== this.#opened.ino) throw swapped(shownPath, param);
  }

  async sync(): Promise<void> {
    await this.#handle.sync().catch(() => undefined);
  }

  async removeCreated(): Promise<void> {
    await removeCreated(this.#created.splice(0));
  }

  async close(): Promise<void> {
    await this.#handle.close().catch(() => undefined);
    const parents = [...this.#parents];
    this.#parents.clear();
    this.#created.length = 0;
    await Promise.all(parents.map((p) => p.close()));
  }
}

/** A folder an open created: `name` in `parent`, and what it was when opened (null: never opened). */
interface Created {
  parent: CheckedDir;
  name: string;
  made: Stats | null;
}

/**
 * Removes folders we created, deepest first, each through its parent's descriptor, only if empty and still
 * the folder we made (somebody may have moved ours away and put their own, or a link, under the name).
 */
async function removeCreated(created: Created[]): Promise<void> {
  for (const { parent, name, made } of [...created].reverse()) {
    const path = join(parent.base, name);
    const now = await fs.lstat(path).catch(() => null);
    if (!now?.isDirectory() || (made && (now.dev !== made.dev || now.ino !== made.ino))) continue;
    await fs.rmdir(path).catch(() => undefined);
  }
}
