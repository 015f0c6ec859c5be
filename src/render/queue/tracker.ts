/**
 * Every file a render job creates goes through a FileTracker: it opens temporaries exclusively (O_EXCL,
 * O_NOFOLLOW) beside their final name, renames them on completion and records each exact path, so that on
 * cancellation or failure the job removes precisely what it made and nothing else (it never scans a folder).
 *
 * Output folders are opened once per job through an `OpenWriteDir`: by path when unconfined; when confined,
 * through a handle the confinement verified (src/confinement/checked-dir.ts), so creates, renames and the
 * cleanup all land in the checked directory even if it is swapped for a symlink mid-render, and each rename
 * is preceded by a check that the directory is still where it was.
 */
import { constants, promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { WriteDir } from '../../confinement/types.js';
import { openPlainDir, type OpenWriteDir } from './plain-dir.js';

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** A temporary that becomes `finalPath` on commit. */
export interface TrackedFile {
  /** The final name as the exporter gave it (what it reports). */
  readonly finalPath: string;
  /** Real path of the temporary, for diagnostics (cleanup goes through the directory handle). */
  readonly tempPath: string;
  /** The temporary as a child process (ffmpeg) must open it: through our handle on the checked directory. */
  readonly childPath: string;
  /** The final file as this process reads it back after commit (to hash it). */
  readonly readPath: string;
}

/** A file the tracker owns: `name` inside `dir`, known to the world by its real path. */
interface Owned {
  dir: WriteDir;
  name: string;
}

export class FileTracker {
  readonly #openDir: OpenWriteDir;
  // Output folders opened by this job, in opening order, by the path the exporter gave.
  readonly #dirs = new Map<string, Promise<WriteDir>>();
  // Files this job created and still owns, by real path: temporaries until committed, then final names.
  readonly #owned = new Map<string, Owned>();

  #committed = 0;

  /** `openDir`: how output folders are reached (default: by path, i.e. unconfined). */
  constructor(openDir: OpenWriteDir = openPlainDir) {
    this.#openDir = openDir;
  }

  /** Files completed (renamed to their final name) so far: "files written" in renderQueue.list. */
  get committed(): number {
    return this.#committed;
  }

  /** Real paths created and not yet removed (tests and diagnostics). */
  get paths(): string[] {
    return [...this.#owned.keys()];
  }

  /** The temporary name for `finalPath`: hidden, in the same directory so the rename is atomic. */
  static tempFor(finalPath: string): string {
    return join(dirname(finalPath), `.${basename(finalPath)}.${randomBytes(5).toString('hex')}.part`);
  }

  /**
   * Opens (creating it and missing parents when absent) the output folder `dir`, once per job; the folders it
   * had to create are removed on cleanup if empty. Confined, refuses with path_outside_roots.
   */
  async ensureDir(dir: string): Promise<WriteDir> {
    let opened = this.#dirs.get(dir);
    if (!opened) {
      opened = this.#openDir(dir);
      this.#dirs.set(dir, opened);
      // A refused or failed open is not cached: the next attempt checks again.
      opened.catch(() => this.#dirs.delete(dir));
    }
    return opened;
  }

  /** Creates an empty temporary for `finalPath` (for writers that open the file themselves, like ffmpeg). */
  async create(finalPath: string): Promise<TrackedFile> {
    const { dir, tempName } = await this.#createTemp(finalPath);
    await (await fs.open(join(dir.base, tempName), CREATE_FLAGS, 0o644)).close();
    return this.#tracked(finalPath, dir, tempName);
  }

  /**
   * Writes `data` to a new temporary and renames it to `finalPath`. On a failed write the temporary is removed
   * before the error propagates (the caller may retry elsewhere, e.g. on an overflow volume).
   */
  async writeFile(finalPath: string, data: Uint8Array): Promise<void> {
    const { dir, tempName } = await this.#createTemp(finalPath);
    const tempReal = join(dir.real, tempName);
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(join(dir.base, tempName), CREATE_FLAGS, 0o644);
      this.#owned.set(tempReal, { dir, name: tempName });
      await handle.writeFile(data);
      await handle.close();
      handle = undefined;
    } catch (err) {
      await handle?.close().catch(() => undefined);
      await this.#remove(tempReal);
      throw err;
    }
    await this.commit(this.#tracked(finalPath, dir, tempName));
  }

  /**
   * Renames a finished temporary to its final name; the final name is owned from then on. Confined, the
   * folder is verified first: a folder moved or swapped since it was opened fails with path_outside_roots.
   */
  async commit(file: TrackedFile): Promise<void> {
    const temp = this.#owned.get(file.tempPath);
    if (!temp) throw new Error(`Not a pending temporary of this job: ${file.tempPath}`);
    const { dir } = temp;
    const name = basename(file.finalPath);
    await dir.verify();
    await fs.rename(join(dir.base, temp.name), join(dir.base, name));
    this.#owned.delete(file.tempPath);
    this.#owned.set(join(dir.real, name), { dir, name });
    this.#committed++;
  }

  /** Removes every path this tracker created: the job's exact cleanup on cancellation or failure. */
  async removeAll(): Promise<void> {
    await Promise.all([...this.#owned.keys()].map((p) => this.#remove(p)));
    // Deepest folders were opened last (an overflow folder inside the output folder): undo in reverse.
    for (const dir of (await this.#openedDirs()).reverse()) {
      await dir.removeCreated();
      await dir.close();
    }
  }

  /** Forgets everything: called when an item finishes, so its files stay even if a later item is cancelled. */
  async release(): Promise<void> {
    this.#owned.clear();
    await Promise.all((await this.#openedDirs()).map((d) => d.close()));
  }

  async #createTemp(finalPath: string): Promise<{ dir: WriteDir; tempName: string }> {
    const dir = await this.ensureDir(dirname(finalPath));
    return { dir, tempName: basename(FileTracker.tempFor(finalPath)) };
  }

  #tracked(finalPath: string, dir: WriteDir, tempName: string): TrackedFile {
    const tempPath = join(dir.real, tempName);
    this.#owned.set(tempPath, { dir, name: tempName });
    return {
      finalPath,
      tempPath,
      childPath: join(dir.sharedBase, tempName),
      readPath: join(dir.base, basename(finalPath)),
    };
  }

  /** Removes one owned file through its folder's handle (missing is fine). */
  async #remove(real: string): Promise<void> {
    const owned = this.#owned.get(real);
    if (owned) await fs.rm(join(owned.dir.base, owned.name), { force: true }).catch(() => undefined);
    this.#owned.delete(real);
  }

  /** The folders opened so far (failed opens left out), emptied from the cache. */
  async #openedDirs(): Promise<WriteDir[]> {
    const all = await Promise.allSettled(this.#dirs.values());
    this.#dirs.clear();
    return all.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }
}
