/**
 * Where samples uploaded by remote clients live (the put_sample convention, docs/remote.md): under the first
 * write root, in `.effectcraft-uploads/<instance>/<sha256>/<filename>`, so the returned path is one the server's
 * confined commands may read (write roots are readable). Content-addressed: the same sha256 is stored once (a
 * second name is a hard link to the same bytes). Folders are 0700, files 0600, written temporary + rename.
 * A sample unused for `idleMs` (not uploaded again, not named by the open project or a running render) is removed, an upload with no
 * chunk for `idleMs` is abandoned, and close() removes this process's folder: a stopped server leaves nothing.
 * A `folder` (put_sample, put_sample_begin) also links the sample into `folders/<folder>/<filename>` and returns
 * that path, so the frames of an image sequence share one folder (file.import {sequence: true} reads a run of
 * numbered files from one folder). The link is a second name for the same stored bytes.
 * One store per process, shared by every HTTP request's server instance.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { UPLOADS_FOLDER } from '../../confinement/index.js';
import type { ErrorInfo } from '../../engine/index.js';
import { sameFile, stampOf, type FileStamp } from './file-stamp.js';
import { CREATE_NEW, PendingUpload } from './pending-upload.js';
import { checkSampleName } from './sample-name.js';

export { UPLOADS_FOLDER };
/** put_sample takes at most this much; larger files go in chunks (put_sample_begin). */
export const SINGLE_PUT_MAX = 8 * 1024 * 1024;
/** Uploads in progress at once: each holds a folder and a reservation until it finishes or is abandoned. */
const MAX_PENDING = 64;

export interface UploadLimits {
  /** Largest upload in bytes (one put_sample, or the size of one put_sample_begin). */
  maxUploadBytes: number;
  /** Bytes held at once: stored samples plus the sizes of uploads in progress. */
  maxTotalBytes: number;
  /** A sample unused this long is removed; an upload with no chunk this long is abandoned. */
  idleMs: number;
  /**
   * An upload that has received no chunk at all is abandoned after this long: its begin's answer was most likely
   * lost, so no client holds its upload_id, and its size would stay reserved for all of idleMs.
   */
  unstartedMs: number;
}

const GiB = 1024 * 1024 * 1024;
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxUploadBytes: 2 * GiB,
  maxTotalBytes: 8 * GiB,
  idleMs: 30 * 60_000,
  unstartedMs: 2 * 60_000,
};

export interface UploadStoreOptions {
  /** Real path of the write root to keep uploads in; undefined refuses uploads (no write root). */
  writeRoot: string | undefined;
  limits?: Partial<UploadLimits>;
  /**
   * Whether the open project (or a running render's snapshot) names this path (for a folder given with a
   * trailing separator: anything inside it).
   * Samples it names, and every sample linked into a folder it uses, do not expire.
   */
  inUse?: (path: string) => boolean;
  now?: () => number;
  log?: (message: string) => void;
}

export type Stored<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

interface Sample {
  dir: string;
  names: Set<string>;
  /** The stored file as it was written (every name is a hard link to it): what a reuse checks it still is. */
  file: FileStamp;
  /** Its names in upload folders (`folders/<folder>/<filename>`). */
  links: Set<string>;
  bytes: number;
  lastUsed: number;
}

const fail = <T>(error: ErrorInfo): Stored<T> => ({ ok: false, error });

export class UploadStore {
  readonly limits: UploadLimits;
  readonly #root: string | undefined;
  readonly #now: () => number;
  readonly #log: (message: string) => void;
  readonly #inUse: (path: string) => boolean;
  readonly #samples = new Map<string, Sample>();
  readonly #pending = new Map<string, PendingUpload>();
  /** The folder each chunked upload was begun with, if any. */
  readonly #pendingFolder = new Map<string, string>();
  readonly #locks = new Map<string, Promise<unknown>>();
  /** Folder links of samples forgotten because their file changed, until the sha is stored again. */
  readonly #orphanLinks = new Map<string, Set<string>>();
  #folder: Promise<string> | undefined;
  #sweeper: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: UploadStoreOptions) {
    this.#root = options.writeRoot;
    const limits = { ...DEFAULT_UPLOAD_LIMITS, ...options.limits };
    // Never longer than the idle time given (tests and small nodes shorten it).
    this.limits = { ...limits, unstartedMs: Math.min(limits.unstartedMs, limits.idleMs) };
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? (() => undefined);
    this.#inUse = options.inUse ?? (() => false);
  }

  /** Stores one sample sent whole (put_sample). */
  async put(
    filename: string,
    content: Buffer,
    sha256: string,
    folder?: string,
  ): Promise<Stored<{ path: string }>> {
    const refused = this.#refusal(filename, content.length) ?? folderRefusal(folder);
    if (refused) return fail(refused);
    if (content.length > SINGLE_PUT_MAX)
      return fail({
        code: 'bad_argument',
        message: `put_sample takes at most ${SINGLE_PUT_MAX} bytes; this sample has ${content.length}.`,
        remediation:
          'Send it in chunks: put_sample_begin, put_sample_chunk for each part, put_sample_finish.',
      });
    const want = sha256.toLowerCase();
    const got = createHash('sha256').update(content).digest('hex');
    if (got !== want) return fail(mismatch(filename, want, got));
    const stored = await this.#store(want, filename, content.length, async (file) => {
      await file?.writeFile(content);
      return got;
    });
    return this.#intoFolder(stored, want, filename, folder);
  }

  /** Opens a chunked upload of `size` bytes (put_sample_begin); the size is reserved against the total. */
  async begin(
    filename: string,
    sha256: string,
    size: number,
    folder?: string,
  ): Promise<Stored<{ upload_id: string }>> {
    const early = this.#refusal(filename, size) ?? folderRefusal(folder);
    if (early) return fail(early);
    // A client that begins again after its begin's answer was lost (a network drop) must not reserve twice: an
    // upload of the same name, sha256, size and folder that has received no chunk yet is taken over. No client
    // can be holding that upload's id and sending chunks under it, as it has received none.
    const sha = sha256.toLowerCase();
    for (const [id, earlier] of this.#pending)
      if (
        !earlier.started &&
        !earlier.finishing &&
        earlier.name === filename &&
        earlier.sha256 === sha &&
        earlier.size === size &&
        this.#pendingFolder.get(id) === folder
      ) {
        await this.#drop(id, earlier);
        this.#log(`upload ${id} (${filename}) was taken over by a new put_sample_begin of the same file`);
        break;
      }
    const refused = this.#overTotal(size);
    if (refused) return fail(refused);
    if (this.#pending.size >= MAX_PENDING)
      return fail({
        code: 'busy',
        message: `${MAX_PENDING} uploads are already in progress on this server.`,
        remediation: `Finish them with put_sample_finish or release them with put_sample_abort {upload_id} (uploads that received no chunk are dropped after ${minutes(this.limits.unstartedMs)}, others after ${minutes(this.limits.idleMs)} without one).`,
      });
    const own = await this.#ensureFolder();
    const id = randomBytes(16).toString('hex');
    const dir = join(own, '.partial', id);
    await fs.mkdir(dir, { mode: 0o700 });
    const upload = new PendingUpload({
      id,
      name: filename,
      sha256: sha,
      size,
      dir,
      now: this.#now(),
    });
    this.#pending.set(id, upload);
    if (folder !== undefined) this.#pendingFolder.set(id, folder);
    this.#startSweeping();
    return { ok: true, value: { upload_id: id } };
  }

  /** Keeps one chunk (put_sample_chunk): any order, resends replace. */
  async chunk(uploadId: string, seq: number, content: Buffer): Promise<Stored<{ seq: number }>> {
    const upload = this.#pending.get(uploadId);
    if (!upload || upload.finishing) return fail(noUpload(uploadId, upload ? 'is finishing' : undefined));
    const error = await upload.put(seq, content, this.#now());
    // A write of this upload failed (this chunk's own may still be running: then the next call or finish says so).
    if (upload.failed) {
      await this.#drop(uploadId, upload);
      return fail(upload.failed);
    }
    return error ? fail(error) : { ok: true, value: { seq } };
  }

  /** Forgets an upload (finished, failed or abandoned) and removes its chunk files. */
  async #drop(uploadId: string, upload: PendingUpload): Promise<void> {
    if (this.#pending.get(uploadId) !== upload) return;
    this.#pending.delete(uploadId);
    this.#pendingFolder.delete(uploadId);
    await upload.discard();
  }

  /** Joins the chunks, checks the sha256 and stores the sample (put_sample_finish). */
  async finish(uploadId: string): Promise<Stored<{ path: string }>> {
    const upload = this.#pending.get(uploadId);
    if (!upload || upload.finishing) return fail(noUpload(uploadId, upload ? 'is finishing' : undefined));
    // The last chunks' writes may still be running: they land (or fail) before anything is checked.
    const failed = await upload.settled();
    if (failed) {
      await this.#drop(uploadId, upload);
      return fail(failed);
    }
    const missing = upload.missing();
    if (missing) return fail(missing);
    upload.finishing = true;
    try {
      const r = await this.#store(
        upload.sha256,
        upload.name,
        upload.size,
        (file) => upload.join(file),
        upload,
      );
      // Security: a tampered or wrong chunk leaves nothing behind; the client begins again.
      const folder = this.#pendingFolder.get(uploadId);
      await this.#drop(uploadId, upload);
      return await this.#intoFolder(r, upload.sha256, upload.name, folder);
    } catch (err) {
      upload.finishing = false;
      throw err;
    }
  }

  /** Drops an unfinished chunked upload (put_sample_abort): its parts are removed and its size is no longer held. */
  async abort(uploadId: string): Promise<Stored<{ upload_id: string; released_bytes: number }>> {
    const upload = this.#pending.get(uploadId);
    if (!upload || upload.finishing) return fail(noUpload(uploadId, upload ? 'is finishing' : undefined));
    await this.#drop(uploadId, upload);
    return { ok: true, value: { upload_id: uploadId, released_bytes: upload.size } };
  }

  /**
   * Removes samples unused for idleMs and uploads abandoned for as long (unstartedMs for one that never received a
   * chunk). Runs on a timer; tests call it.
   */
  async sweep(): Promise<void> {
    const now = this.#now();
    for (const [id, upload] of this.#pending) {
      const after = upload.started ? this.limits.idleMs : this.limits.unstartedMs;
      if (upload.finishing || now - upload.lastUsed < after) continue;
      await this.#drop(id, upload);
      this.#log(`upload ${id} (${upload.name}) was abandoned: no chunk for ${minutes(after)}`);
    }
    // A folder the project reads from (an image sequence names its first file) keeps all of its samples.
    const foldersInUse = new Set<string>();
    for (const sample of this.#samples.values())
      for (const link of sample.links) if (this.#inUse(dirname(link) + sep)) foldersInUse.add(dirname(link));
    for (const [sha, sample] of this.#samples) {
      if (now - sample.lastUsed < this.limits.idleMs) continue;
      if ([...sample.names].some((n) => this.#inUse(join(sample.dir, n)))) continue;
      if ([...sample.links].some((l) => foldersInUse.has(dirname(l)))) continue;
      await this.#withLock(sha, async () => {
        this.#samples.delete(sha);
        await fs.rm(sample.dir, { recursive: true, force: true });
        for (const link of sample.links) await fs.rm(link, { force: true });
      });
    }
  }

  /** Bytes held: stored samples plus reservations of uploads in progress. */
  get bytesHeld(): number {
    let n = 0;
    for (const s of this.#samples.values()) n += s.bytes;
    for (const u of this.#pending.values()) n += u.size;
    return n;
  }

  /** Removes this process's uploads folder (and the shared parent when it is empty). Safe to call twice. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    const folder = await this.#folder?.catch(() => undefined);
    this.#samples.clear();
    this.#pending.clear();
    this.#pendingFolder.clear();
    if (!folder) return;
    await fs.rm(folder, { recursive: true, force: true });
    await fs.rmdir(join(folder, '..')).catch(() => undefined);
  }

  /** Why no upload can be taken at all (no write root, stopping), or null. */
  refusal(): ErrorInfo | null {
    if (this.#root === undefined)
      return {
        code: 'not_configured',
        message: 'Uploads need a write root to be kept in, and this server was started without one.',
        remediation:
          'Restart the server with --automation-write-root DIR (uploads go under DIR/.effectcraft-uploads), or call commands with paths on the server machine.',
      };
    if (this.#closed)
      return {
        code: 'not_configured',
        message: 'The server is stopping.',
        remediation: 'Upload again once it has restarted.',
      };
    return null;
  }

  /** Why an upload cannot even start: no write root, a bad name, a size over the per-upload limit. */
  #refusal(filename: string, size: number): ErrorInfo | null {
    const refused = this.refusal();
    if (refused) return refused;
    const name = checkSampleName(filename);
    if (!name.ok) return name.error;
    if (size > this.limits.maxUploadBytes)
      return {
        code: 'bad_argument',
        message: `An upload may hold at most ${this.limits.maxUploadBytes} bytes on this server; this one has ${size}.`,
        remediation:
          'Send a smaller file (a shorter clip, a lower resolution), or ask whoever runs the server to raise --max-upload.',
      };
    return null;
  }

  #overTotal(size: number): ErrorInfo | null {
    if (this.bytesHeld + size <= this.limits.maxTotalBytes) return null;
    let stored = 0;
    for (const s of this.#samples.values()) stored += s.bytes;
    const pending = [...this.#pending.values()];
    const reserved = pending.reduce((n, u) => n + u.size, 0);
    const unstarted = pending.filter((u) => !u.started).length;
    return {
      code: 'busy',
      message:
        `The server holds ${this.bytesHeld} bytes of uploads: ${stored} in ${this.#samples.size} stored sample(s) ` +
        `and ${reserved} reserved by ${pending.length} unfinished chunked upload(s) (${unstarted} with no chunk yet); ` +
        `${size} more would pass its limit of ${this.limits.maxTotalBytes}.`,
      remediation:
        `Reserved space is freed by put_sample_finish or put_sample_abort {upload_id}, and an unfinished upload is dropped after ${minutes(this.limits.unstartedMs)} with no chunk at all or ${minutes(this.limits.idleMs)} without a new one; ` +
        `stored samples are removed after ${minutes(this.limits.idleMs)} unused (not uploaded again, not named by the open project or a running render). ` +
        'Try again then, or ask whoever runs the server to raise --max-upload-total.',
    };
  }

  /**
   * Stores `size` bytes as `name` under `sha`, one writer per sha at a time. `produce` writes the bytes into the
   * temporary (or, with null, only hashes them when the sha is stored already) and returns their sha256.
   */
  async #store(
    sha: string,
    name: string,
    size: number,
    produce: (file: fs.FileHandle | null) => Promise<string>,
    upload?: PendingUpload,
  ): Promise<Stored<{ path: string }>> {
    return this.#withLock(sha, async (): Promise<Stored<{ path: string }>> => {
      const known = await this.#intact(sha);
      if (known) {
        const got = await produce(null);
        if (got !== sha) return fail(mismatch(name, sha, got));
        if (!known.names.has(name)) {
          // Through a temporary and a rename: a file someone put under this name is replaced, never served.
          const [first] = known.names;
          const tmp = join(known.dir, `.${randomBytes(6).toString('hex')}.link`);
          await fs.link(join(known.dir, first!), tmp);
          await fs.rename(tmp, join(known.dir, name));
          known.names.add(name);
        }
        known.lastUsed = this.#now();
        return { ok: true, value: { path: join(known.dir, name) } };
      }
      // An upload in progress has its size reserved already; a whole put is counted here.
      const over = upload ? null : this.#overTotal(size);
      if (over) return fail(over);
      const dir = join(await this.#ensureFolder(), sha);
      await fs.mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      // Chunks that arrived in order are in one file already: hash it and move it in, no copy.
      const ready = await upload?.assembled();
      const written = ready ? { tmp: ready.path, got: ready.sha256 } : await this.#writeTemp(dir, produce);
      if (written.got !== sha) {
        await fs.rm(ready ? ready.path : dir, { recursive: true, force: true });
        if (ready) await fs.rmdir(dir).catch(() => undefined);
        return fail(mismatch(name, sha, written.got));
      }
      // A name left from a sample forgotten by #intact (changed from outside) is replaced by this rename.
      await fs.rename(written.tmp, join(dir, name));
      this.#samples.set(sha, {
        dir,
        names: new Set([name]),
        file: stampOf(await fs.lstat(join(dir, name))),
        links: this.#orphanLinks.get(sha) ?? new Set(),
        bytes: size,
        lastUsed: this.#now(),
      });
      this.#orphanLinks.delete(sha);
      this.#startSweeping();
      return { ok: true, value: { path: join(dir, name) } };
    });
  }

  /**
   * The stored sample of `sha` when its file is still the one this store wrote, under each of its names; the
   * names that no longer are (removed, replaced or changed from outside the store) are dropped. With none left
   * the sample is forgotten, so the caller writes it again. Call under the sha's lock.
   * Security: the in-memory index alone would answer a path whose bytes are gone or are someone else's.
   */
  async #intact(sha: string): Promise<Sample | undefined> {
    const sample = this.#samples.get(sha);
    if (!sample) return undefined;
    for (const name of [...sample.names]) {
      const st = await fs.lstat(join(sample.dir, name)).catch(() => null);
      if (st?.isFile() && sameFile(st, sample.file)) continue;
      sample.names.delete(name);
      this.#log(`uploaded sample ${join(sample.dir, name)} was removed or changed outside the store`);
    }
    if (sample.names.size) return sample;
    this.#samples.delete(sha);
    // Its folder links are taken over by the sample stored again, which the sweep then removes in time.
    this.#orphanLinks.set(sha, sample.links);
    return undefined;
  }

  /**
   * Links a stored sample into `folders/<folder>/<name>` (replacing an earlier file of that name there, in one
   * rename) and answers that path; without a folder, the stored answer as it is.
   */
  async #intoFolder(
    stored: Stored<{ path: string }>,
    sha: string,
    name: string,
    folder: string | undefined,
  ): Promise<Stored<{ path: string }>> {
    if (!stored.ok || folder === undefined) return stored;
    return this.#withLock(sha, async (): Promise<Stored<{ path: string }>> => {
      const sample = this.#samples.get(sha);
      if (!sample) return stored;
      const dir = join(await this.#ensureFolder(), 'folders', folder);
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const target = join(dir, name);
      const tmp = join(dir, `.${randomBytes(6).toString('hex')}.link`);
      await fs.link(stored.value.path, tmp);
      await fs.rename(tmp, target);
      // The name may have pointed at another sample's bytes before: that sample no longer owns it.
      for (const other of this.#samples.values()) if (other !== sample) other.links.delete(target);
      sample.links.add(target);
      return { ok: true, value: { path: target } };
    });
  }

  /** Writes the bytes `produce` gives into a new 0600 temporary in `dir`, synced; returns it and their sha256. */
  async #writeTemp(
    dir: string,
    produce: (file: fs.FileHandle | null) => Promise<string>,
  ): Promise<{ tmp: string; got: string }> {
    const tmp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
    const file = await fs.open(tmp, CREATE_NEW, 0o600);
    try {
      await file.chmod(0o600);
      const got = await produce(file);
      await file.sync();
      return { tmp, got };
    } finally {
      await file.close();
    }
  }

  /** Makes `<root>/.effectcraft-uploads/<pid>-<random>/.partial` once, 0700, refusing a planted link. */
  #ensureFolder(): Promise<string> {
    this.#folder ??= (async () => {
      const shared = join(this.#root!, UPLOADS_FOLDER);
      await fs.mkdir(shared, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      // Security: the shared folder must be a real folder of ours, not a link somewhere else.
      const st = await fs.lstat(shared);
      if (!st.isDirectory() || st.isSymbolicLink() || (process.getuid && st.uid !== process.getuid()))
        throw new Error(`${shared} is not a folder owned by this user`);
      const own = join(shared, `${process.pid}-${randomBytes(4).toString('hex')}`);
      await fs.mkdir(own, { mode: 0o700 });
      await fs.chmod(own, 0o700);
      await fs.mkdir(join(own, '.partial'), { mode: 0o700 });
      return own;
    })();
    return this.#folder;
  }

  #startSweeping(): void {
    if (this.#sweeper || this.#closed) return;
    const every = Math.max(1000, Math.min(60_000, this.limits.idleMs / 2));
    this.#sweeper = setInterval(() => {
      this.sweep().catch((err: unknown) => this.#log(`upload sweep failed: ${String(err)}`));
    }, every).unref();
  }

  async #withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#locks.get(key) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.#locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#locks.get(key) === tail) this.#locks.delete(key);
    }
  }
}

/** A duration for messages: "2 minutes", "30 minutes", "1.5 seconds". */
function minutes(ms: number): string {
  return ms >= 60_000 ? `${+(ms / 60_000).toFixed(1)} minutes` : `${+(ms / 1000).toFixed(1)} seconds`;
}

/** A folder is a name as a filename is (one level, no separators or dots to climb out). */
function folderRefusal(folder: string | undefined): ErrorInfo | null {
  if (folder === undefined) return null;
  const check = checkSampleName(folder);
  if (check.ok) return null;
  return {
    code: 'bad_argument',
    message: check.error.message.replace(/^filename/, 'folder'),
    remediation: 'Pass a plain folder name (e.g. "shot1"); the server chooses where that folder lives.',
  };
}

function mismatch(name: string, want: string, got: string): ErrorInfo {
  return {
    code: 'bad_argument',
    message: `The bytes of ${name} have sha256 ${got}, not the ${want} that was given; nothing was kept.`,
    remediation: 'Upload the file again (a chunk may have been damaged or sent under the wrong seq).',
  };
}

function noUpload(
  id: string,
  why = 'is not open (finished, aborted, abandoned, taken over by a new begin of the same file, or never begun)',
): ErrorInfo {
  return {
    code: 'not_found',
    message: `Upload ${id} ${why}.`,
    remediation: 'Start the upload with put_sample_begin and use the upload_id it returns.',
  };
}
