/**
 * Every file a render job creates goes through a FileTracker: it opens temporaries exclusively (O_EXCL,
 * O_NOFOLLOW) beside their final name, renames them on completion and records each exact path, so that on
 * cancellation or failure the job removes precisely what it made and nothing else (it never scans a folder).
 */
import { constants, promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** A temporary that becomes `finalPath` on commit. */
export interface TrackedFile {
  readonly tempPath: string;
  readonly finalPath: string;
}

export class FileTracker {
  // Paths this job created and still owns: temporaries until committed, then their final names.
  readonly #owned = new Set<string>();
  // Folders this job created (deepest first), removed on cleanup only if they are empty again.
  readonly #dirs: string[] = [];

  #committed = 0;

  /** Files completed (renamed to their final name) so far: "files written" in renderQueue.list. */
  get committed(): number {
    return this.#committed;
  }

  /** Paths created and not yet removed (tests and diagnostics). */
  get paths(): string[] {
    return [...this.#owned];
  }

  /** The temporary name for `finalPath`: hidden, in the same directory so the rename is atomic. */
  static tempFor(finalPath: string): string {
    return join(dirname(finalPath), `.${basename(finalPath)}.${randomBytes(5).toString('hex')}.part`);
  }

  /** Creates `dir` (and missing parents) when absent, remembering exactly which folders were new. */
  async ensureDir(dir: string): Promise<void> {
    const first = await fs.mkdir(dir, { recursive: true });
    if (!first) return;
    const made: string[] = [];
    for (let d = dir; ; d = dirname(d)) {
      made.push(d);
      if (d === first || dirname(d) === d) break;
    }
    this.#dirs.unshift(...made);
  }

  /** Creates an empty temporary for `finalPath` (for writers that open the file themselves, like ffmpeg). */
  async create(finalPath: string): Promise<TrackedFile> {
    const tempPath = FileTracker.tempFor(finalPath);
    const handle = await fs.open(tempPath, CREATE_FLAGS, 0o644);
    this.#owned.add(tempPath);
    await handle.close();
    return { tempPath, finalPath };
  }

  /**
   * Writes `data` to a new temporary and renames it to `finalPath`. On a failed write the temporary is removed
   * before the error propagates (the caller may retry elsewhere, e.g. on an overflow volume).
   */
  async writeFile(finalPath: string, data: Uint8Array): Promise<void> {
    const tempPath = FileTracker.tempFor(finalPath);
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(tempPath, CREATE_FLAGS, 0o644);
      this.#owned.add(tempPath);
      await handle.writeFile(data);
      await handle.close();
      handle = undefined;
    } catch (err) {
      await handle?.close().catch(() => undefined);
      await this.remove(tempPath);
      throw err;
    }
    await this.commit({ tempPath, finalPath });
  }

  /** Renames a finished temporary to its final name; the final name is owned from then on. */
  async commit(file: TrackedFile): Promise<void> {
    await fs.rename(file.tempPath, file.finalPath);
    this.#owned.delete(file.tempPath);
    this.#owned.add(file.finalPath);
    this.#committed++;
  }

  /** Removes one tracked path (missing is fine). */
  async remove(path: string): Promise<void> {
    await fs.rm(path, { force: true }).catch(() => undefined);
    this.#owned.delete(path);
  }

  /** Removes every path this tracker created: the job's exact cleanup on cancellation or failure. */
  async removeAll(): Promise<void> {
    await Promise.all([...this.#owned].map((p) => this.remove(p)));
    for (const d of this.#dirs.splice(0)) await fs.rmdir(d).catch(() => undefined);
  }

  /** Forgets everything: called when an item finishes, so its files stay even if a later item is cancelled. */
  release(): void {
    this.#owned.clear();
    this.#dirs.length = 0;
  }
}
