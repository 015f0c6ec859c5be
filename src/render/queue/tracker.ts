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
import { EngineError, fsError } from '../../engine/core.js';
import type { WriteDir } from '../../confinement/types.js';
import { sha256File } from '../hash.js';
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

/** A complete file a stopped job keeps (resumable renders): its path, size and sha256. */
export interface KeptOutput {
  path: string;
  bytes: number;
  sha256: string;
}

/** A file the tracker owns: `name` inside `dir`, known to the world by its real path. */
interface Owned {
  dir: WriteDir;
  name: string;
  /**
   * The earlier run's file this one replaced, kept aside under this name (in `dir`) until the item
   * completes: cleanup puts it back instead of removing `name`, so a stopped re-render leaves it as it was.
   */
  aside?: string;
  /** true once `name` holds this job's complete file (committed): what keepCompleted keeps. */
  complete?: boolean;
  /** The final name as the exporter gave it, when an earlier file was kept aside for it (KeptAside reports it). */
  finalPath?: string;
  /** A temporary's descriptor, held while it is ours (create): what tells a live render's file from a stale one. */
  hold?: fs.FileHandle;
  /**
   * The inode of the file this job committed at `name`: another render of the same output may have renamed its
   * own file over it since, which this job's cleanup must neither remove nor put an earlier file back over.
   */
  ino?: number;
}

/** An earlier file kept aside past its item's completion: `aside` is put back over `path`, or deleted. */
export interface KeptFile {
  path: string;
  aside: string;
}

/**
 * Earlier files kept aside past the item's completion, for a caller that decides later whether they are
 * deleted or put back: a distributed chunk completes long before its render does, and the render may still
 * be stopped. Their hidden names are deterministic (`.NAME.<tag>.prev`, one tag per render), so a chunk
 * rendered a second time (its first worker killed) adopts the earlier file its first delivery kept, instead
 * of keeping the first delivery's new file as if it were the earlier one.
 */
export class KeptAside {
  readonly tag: string;
  readonly #kept = new Map<string, KeptFile>();

  constructor(tag: string) {
    this.tag = tag;
  }

  /** The earlier files kept by the items that completed with this keeper. */
  get files(): KeptFile[] {
    return [...this.#kept.values()];
  }

  /** Called by the FileTracker when it lets go of a completed file that replaced an earlier one. */
  keep(file: KeptFile): void {
    this.#kept.set(file.path, file);
  }
}

// What "no hard links here" looks like (FAT, some network volumes): the earlier file is renamed aside instead.
const NO_LINKS = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'EXDEV', 'ENOSYS'];

export class FileTracker {
  readonly #openDir: OpenWriteDir;
  // Output folders opened by this job, in opening order, by the path the exporter gave.
  readonly #dirs = new Map<string, Promise<WriteDir>>();
  // Files this job created and still owns, by real path: temporaries until committed, then final names.
  readonly #owned = new Map<string, Owned>();
  readonly #keep: KeptAside | undefined;

  #committed = 0;

  /**
   * `openDir`: how output folders are reached (default: by path, i.e. unconfined). `keep`: the earlier files
   * replaced are kept aside (deterministic names) and handed to it on completion instead of being deleted.
   */
  constructor(openDir: OpenWriteDir = openPlainDir, keep?: KeptAside) {
    this.#openDir = openDir;
    this.#keep = keep;
  }

  /** Files completed (renamed to their final name) so far: "files written" in renderQueue.list. */
  get committed(): number {
    return this.#committed;
  }

  /**
   * The committed files another program has since replaced (renamed its own over them, or removed): another
   * render of the same output, in this process or another. One lstat each, through the folder's handle.
   */
  async replaced(): Promise<string[]> {
    const committed = [...this.#owned].filter(([, o]) => o.complete && o.ino !== undefined);
    const found = await Promise.all(
      committed.map(async ([real, o]) => {
        const now = await fs.lstat(join(o.dir.base, o.name)).catch(() => null);
        return now?.ino === o.ino ? null : real;
      }),
    );
    return found.filter((p) => p !== null);
  }

  /** Real paths created and not yet removed, earlier files kept aside included (tests and diagnostics). */
  get paths(): string[] {
    return [...this.#owned].flatMap(([real, o]) => (o.aside ? [real, join(o.dir.real, o.aside)] : [real]));
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
    // Errors name the output the person asked for, not our hidden temporary (".out.mp4.3471b16d14.part").
    const handle = await fs.open(join(dir.base, tempName), CREATE_FLAGS, 0o644).catch((err: unknown) => {
      throw err instanceof EngineError ? err : fsError(err, finalPath, 'write');
    });
    // Held open until it is renamed or removed: a temporary nobody holds is one a killed render left, which
    // the next render of the same output reclaims (stale-temporaries.ts). The writer (ffmpeg) opens its own.
    const tracked = this.#tracked(finalPath, dir, tempName);
    this.#owned.get(tracked.tempPath)!.hold = handle;
    return tracked;
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
   * Renames a finished temporary to its final name; the final name is owned from then on. A file already
   * there (an earlier run's frame) is kept aside first and put back if the item does not complete. Confined,
   * the folder is verified first: a folder moved or swapped since it was opened fails with path_outside_roots.
   */
  async commit(file: TrackedFile): Promise<void> {
    const temp = this.#owned.get(file.tempPath);
    if (!temp) throw new Error(`Not a pending temporary of this job: ${file.tempPath}`);
    const { dir } = temp;
    const name = basename(file.finalPath);
    const finalReal = join(dir.real, name);
    await dir.verify();
    // A name this job already wrote holds no earlier file: keep what was set aside for it the first time.
    const owned = this.#owned.get(finalReal) ?? {
      dir,
      name,
      aside: await this.#setAside(dir, name),
      finalPath: file.finalPath,
    };
    // Recorded before the rename when something was set aside, so cleanup puts it back even if the rename
    // fails; otherwise only once the name is ours (cleanup must never remove what is there instead).
    if (owned.aside) this.#owned.set(finalReal, owned);
    // The temporary's name is ours alone (random, created exclusively): its inode is the file we commit.
    const { ino } = await fs.lstat(join(dir.base, temp.name));
    await fs.rename(join(dir.base, temp.name), join(dir.base, name));
    this.#owned.set(finalReal, { ...owned, complete: true, ino });
    this.#owned.delete(file.tempPath);
    await temp.hold?.close().catch(() => undefined);
    this.#committed++;
  }

  /**
   * Removes a temporary that will never be committed (an intermediate, such as the sound mixed before it
   * is muxed) once it has served, whether or not the item completes.
   */
  async discard(file: TrackedFile): Promise<void> {
    await this.#remove(file.tempPath);
  }

  /**
   * The job's exact cleanup on cancellation or failure: removes every path this tracker created and puts
   * back the earlier files its files replaced.
   */
  async removeAll(): Promise<void> {
    await Promise.all([...this.#owned.keys()].map((p) => this.#remove(p)));
    await this.#closeDirs();
  }

  /**
   * The cleanup of an item stopped (or failed) with `resume`: its complete files stay, so the next run can
   * skip them; the rest goes as in removeAll (temporaries removed, an earlier file whose replacement never
   * completed put back). An earlier file that a complete one replaced is deleted, as on release.
   */
  async keepCompleted(): Promise<KeptOutput[]> {
    const unfinished = [...this.#owned].filter(([, o]) => !o.complete).map(([real]) => real);
    await Promise.all(unfinished.map((p) => this.#remove(p)));
    // What stays, as a stopped item reports it: read back while its folders are still open (hashing only
    // what this job wrote, on a stop, never on the way of a render), one file at a time, streamed: hundreds
    // of 4K frames read at once would hold gigabytes.
    const kept: KeptOutput[] = [];
    for (const [real, o] of this.#owned) {
      if (!o.complete) continue;
      const file = join(o.dir.base, o.name);
      const { size } = await fs.stat(file);
      kept.push({ path: o.finalPath ?? real, bytes: size, sha256: await sha256File(file) });
    }
    await this.#forget();
    await this.#closeDirs();
    return kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * Forgets everything: called when an item finishes, so its files stay even if a later item is cancelled.
   * The earlier files they replaced are deleted now that the new ones are complete.
   */
  async release(): Promise<void> {
    await this.#forget();
    await Promise.all((await this.#openedDirs()).map((d) => d.close()));
  }

  /**
   * Disowns every file, deleting the earlier files kept aside for them (each was replaced by a complete one),
   * or handing them to the KeptAside when there is one.
   */
  async #forget(): Promise<void> {
    const owned = [...this.#owned.values()];
    const asides = owned.filter((o) => o.aside);
    // Disowned at once (before any await): a cleanup that runs meanwhile must not take these files.
    this.#owned.clear();
    await Promise.all(owned.map((o) => o.hold?.close().catch(() => undefined)));
    if (this.#keep) {
      for (const o of asides)
        if (o.complete && o.finalPath)
          this.#keep.keep({ path: o.finalPath, aside: join(dirname(o.finalPath), o.aside!) });
      return;
    }
    await Promise.all(
      asides.map((o) => fs.rm(join(o.dir.base, o.aside!), { force: true }).catch(() => undefined)),
    );
  }

  /** Removes the folders this job created that are empty again, and closes every folder it opened. */
  async #closeDirs(): Promise<void> {
    // Deepest folders were opened last (an overflow folder inside the output folder): undo in reverse.
    for (const dir of (await this.#openedDirs()).reverse()) {
      await dir.removeCreated();
      await dir.close();
    }
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

  /**
   * Keeps the file at `name` (if any) under a hidden name beside it, so the item can put it back: a second
   * hard link, so the name never disappears, or a rename where the volume has no hard links. undefined when
   * there is nothing there to keep (a folder is left alone; the rename over it then fails as it always did).
   */
  async #setAside(dir: WriteDir, name: string): Promise<string | undefined> {
    const aside = `.${name}.${this.#keep?.tag ?? randomBytes(5).toString('hex')}.prev`;
    const [from, to] = [join(dir.base, name), join(dir.base, aside)];
    // Kept under a deterministic name: an earlier delivery of the same work kept the earlier file there, and
    // what is at `name` now is that delivery's new file. The earlier file is the one to put back.
    if (this.#keep && (await fs.lstat(to).catch(() => null))) return aside;
    try {
      await fs.link(from, to);
      return aside;
    } catch (err) {
      if (!NO_LINKS.includes((err as NodeJS.ErrnoException).code ?? '')) return undefined;
    }
    const found = await fs.lstat(from).catch(() => null);
    if (!found || found.isDirectory()) return undefined;
    await fs.rename(from, to);
    return aside;
  }

  /**
   * Removes one owned file through its folder's handle (missing is fine), or puts back the earlier file it
   * replaced. A failed put-back leaves the earlier file under its hidden name: its bytes are never deleted.
   */
  async #remove(real: string): Promise<void> {
    const owned = this.#owned.get(real);
    this.#owned.delete(real);
    if (!owned) return;
    await owned.hold?.close().catch(() => undefined);
    const [base, name] = [owned.dir.base, owned.name];
    if (owned.ino !== undefined) {
      const now = await fs.lstat(join(base, name)).catch(() => null);
      // Replaced since by another render of the same output: its file, not ours to remove or to put an earlier
      // one back over. The earlier file we kept aside was replaced by it too.
      if (now && now.ino !== owned.ino) {
        if (owned.aside) await fs.rm(join(base, owned.aside), { force: true }).catch(() => undefined);
        return;
      }
    }
    if (!owned.aside) return void (await fs.rm(join(base, name), { force: true }).catch(() => undefined));
    const aside = join(base, owned.aside);
    // After a put-back the hidden name is gone, or (a failed commit left both names on the same file, and
    // rename then does nothing) it is a second link to the earlier file: removing it loses no bytes.
    await fs.rename(aside, join(base, name)).then(
      () => fs.rm(aside, { force: true }),
      () => undefined,
    );
  }

  /** The folders opened so far (failed opens left out), emptied from the cache. */
  async #openedDirs(): Promise<WriteDir[]> {
    const all = await Promise.allSettled(this.#dirs.values());
    this.#dirs.clear();
    return all.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }
}
