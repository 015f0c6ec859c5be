/**
 * One chunked upload between put_sample_begin and put_sample_finish. Chunks may arrive in any order, be resent
 * and differ in size; they are joined in seq order. The common case (seq 0 first, every chunk but the last the
 * same size) is written straight into one assembled file at seq x chunk size, so finish only hashes and renames
 * it. A chunk that does not fit that pattern (it arrived before seq 0, or has another size) is kept as a file
 * of its own named by its seq, and finish then joins everything into a new file. A resend replaces a chunk.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { fsError, type ErrorInfo } from '../../engine/index.js';
import { hashHandle } from './file-hash.js';

/** Security: a new file of ours, never one a planted link points at. */
export const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const ASSEMBLED = 'assembled';
/** The assembled file is read back at finish (hash, join), so it is opened for both. */
const CREATE_NEW_RW = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export class PendingUpload {
  readonly id: string;
  readonly name: string;
  readonly sha256: string;
  readonly size: number;
  /** Folder of this upload's files (0700, inside the store's partial folder). */
  readonly dir: string;
  lastUsed: number;
  /** Set by finish: chunks that arrive after it are refused, and a second finish waits its turn. */
  finishing = false;
  /** Bytes per seq. */
  readonly #chunks = new Map<number, number>();
  /** Seqs that have arrived, counted as they arrive (before any write), so a resend is known at once. */
  readonly #arrived = new Set<number>();
  /** Where each chunk placed in the assembled file is; the others are files of their own. */
  readonly #placed = new Map<number, number>();
  /** Set by the first seq 0 that is not the whole file. */
  #chunkSize: number | undefined;
  #assembled: Promise<fs.FileHandle> | undefined;
  /**
   * The chunks' writes, one after another in arrival order, behind the calls' answers. A chunk call answers once
   * its bytes are counted and the write before it has landed, so a stalled write (20–28 ms for 8 MiB when the
   * kernel throttles dirty pages) overlaps the next chunk's transfer instead of adding to it: one chunk's
   * memory at most waits beyond the answers. In order, so a resend lands after what it replaces.
   */
  #writing: Promise<void> = Promise.resolve();
  /** The first write that failed: the upload cannot be finished, and every later call says why. */
  #failed: ErrorInfo | null = null;
  /**
   * sha256 of the assembled file's chunks hashed so far, in seq order, as they arrive: finish then need not read
   * the whole file back (100 MiB was about 140 ms there). Null once a hashed chunk is replaced or a chunk is kept
   * apart; finish then hashes the file as before.
   */
  #running: { hash: Hash; next: number; work: Promise<void> } | null = {
    hash: createHash('sha256'),
    next: 0,
    work: Promise.resolve(),
  };

  constructor(init: { id: string; name: string; sha256: string; size: number; dir: string; now: number }) {
    this.id = init.id;
    this.name = init.name;
    this.sha256 = init.sha256;
    this.size = init.size;
    this.dir = init.dir;
    this.lastUsed = init.now;
  }

  /** Whether any chunk has arrived (then some client holds this upload's id). */
  get started(): boolean {
    return this.#arrived.size > 0;
  }

  /** Bytes held, a resent seq counted once. */
  get received(): number {
    let n = 0;
    for (const bytes of this.#chunks.values()) n += bytes;
    return n;
  }

  /** Why the upload cannot be finished (a chunk's write failed), or null. */
  get failed(): ErrorInfo | null {
    return this.#failed;
  }

  /**
   * Keeps chunk `seq`; an error when it would overflow `size`, or when a write of this upload has failed. The
   * chunk's own write may still be running when this returns: `settled` waits for it.
   */
  async put(seq: number, data: Buffer, now: number): Promise<ErrorInfo | null> {
    if (this.#failed) return this.#failed;
    const total = this.received - (this.#chunks.get(seq) ?? 0) + data.length;
    if (total > this.size)
      return {
        code: 'bad_argument',
        message: `Chunk ${seq} would bring upload ${this.id} to ${total} bytes, more than the ${this.size} given to put_sample_begin.`,
        remediation:
          'Send each chunk once per seq (a resend replaces it), or begin again with put_sample_begin and the right size.',
      };
    if (seq === 0 && this.#chunkSize === undefined) this.#chunkSize = data.length;
    // A resend may rewrite a place the running hash is reading: hash the file at finish instead.
    if (this.#arrived.has(seq)) this.#running = null;
    this.#arrived.add(seq);
    const offset = this.#offsetOf(seq, data.length);
    if (offset === null) this.#running = null;
    this.#chunks.set(seq, data.length);
    this.lastUsed = now;
    const before = this.#writing;
    this.#writing = before
      .then(() => (this.#failed ? undefined : this.#write(seq, data, offset)))
      .catch((err: unknown) => {
        this.#failed ??= writeFailed(this.id, seq, err);
      });
    await before;
    return this.#failed;
  }

  /** Waits for every write of this upload; why it cannot be finished, or null. */
  async settled(): Promise<ErrorInfo | null> {
    await this.#writing;
    return this.#failed;
  }

  /** Writes chunk `seq` at its place in the assembled file, or as a file of its own when `offset` is null. */
  async #write(seq: number, data: Buffer, offset: number | null): Promise<void> {
    if (offset !== null) {
      const file = await (this.#assembled ??= fs.open(join(this.dir, ASSEMBLED), CREATE_NEW_RW, 0o600));
      await writeAll(file, data, offset);
      this.#placed.set(seq, offset);
      this.#hashInOrder(seq, data, file);
      await fs.rm(join(this.dir, String(seq)), { force: true });
    } else {
      const tmp = join(this.dir, `.${seq}.${randomBytes(6).toString('hex')}.tmp`);
      const handle = await fs.open(tmp, CREATE_NEW, 0o600);
      try {
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, join(this.dir, String(seq)));
      this.#placed.delete(seq);
    }
  }

  /** Where chunk `seq` of `length` bytes goes in the assembled file, or null when it must be kept apart. */
  #offsetOf(seq: number, length: number): number | null {
    const step = this.#chunkSize;
    if (step === undefined || step === 0) return null;
    const offset = seq * step;
    // Each seq has its own slot [seq x step, (seq + 1) x step): a full chunk fills it, the last may end short.
    // Slots never overlap, so a chunk of another size (kept apart) cannot be overwritten by a neighbour.
    const fits = length === step || (length < step && offset + length === this.size);
    return fits && offset + length <= this.size ? offset : null;
  }

  /** Null when every chunk is there; else the error that names the first missing seq. */
  missing(): ErrorInfo | null {
    const seqs = this.#seqs();
    const last = seqs.at(-1) ?? -1;
    const gaps: number[] = [];
    for (let s = 0; s <= last && gaps.length < 10; s++) if (!this.#chunks.has(s)) gaps.push(s);
    const held = this.received;
    if (!gaps.length && held === this.size) return null;
    const which = gaps.length
      ? `chunk${gaps.length > 1 ? 's' : ''} ${gaps.join(', ')} ${gaps.length > 1 ? 'are' : 'is'} missing`
      : `chunk ${last + 1} is missing (chunks 0-${last} hold ${held} of ${this.size} bytes)`;
    return {
      code: 'bad_argument',
      message: `put_sample_finish ${this.id}: ${which}.`,
      remediation:
        'Send the missing chunks with put_sample_chunk, then call put_sample_finish again (the chunks already sent are kept).',
    };
  }

  /**
   * The assembled file when it holds the whole upload in order (every chunk placed, back to back), synced and
   * closed, with its sha256; null when chunks were kept apart and must be joined.
   */
  async assembled(): Promise<{ path: string; sha256: string } | null> {
    await this.#writing;
    let at = 0;
    for (const seq of this.#seqs()) {
      if (this.#placed.get(seq) !== at) return null;
      at += this.#chunks.get(seq)!;
    }
    const file = await this.#assembled;
    if (!file || at !== this.size) return null;
    this.#assembled = undefined;
    try {
      await file.sync();
      return { path: join(this.dir, ASSEMBLED), sha256: await this.#sha256(file) };
    } finally {
      await file.close();
    }
  }

  /**
   * Adds chunk `seq` (just written at its place in `file`) to the running hash when it is the next in order,
   * then any later chunks that arrived before it (read back from the file). A resend of a hashed chunk stops it.
   */
  #hashInOrder(seq: number, data: Buffer, file: fs.FileHandle): void {
    const run = this.#running;
    if (!run) return;
    if (seq < run.next) {
      this.#running = null;
      return;
    }
    run.work = run.work.then(async () => {
      // After this call's answer has gone out: the hash then overlaps the client sending the next chunk.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#running !== run) return;
      if (seq === run.next) {
        run.hash.update(data);
        run.next++;
      }
      for (
        let offset = this.#placed.get(run.next);
        offset !== undefined;
        offset = this.#placed.get(run.next)
      ) {
        // A placed chunk fills its slot, but the last, which ends the file.
        const later = Buffer.alloc(Math.min(this.#chunkSize!, this.size - offset));
        await readAll(file, later, offset);
        run.hash.update(later);
        run.next++;
      }
    });
    // A failed read (the upload discarded meanwhile) leaves finish to hash the file, if it still comes.
    run.work = run.work.catch(() => {
      if (this.#running === run) this.#running = null;
    });
  }

  /** The assembled file's sha256: the running hash when it covers every chunk, else read back whole. */
  async #sha256(file: fs.FileHandle): Promise<string> {
    const run = this.#running;
    await run?.work;
    if (run && this.#running === run && run.next === this.#chunks.size) return run.hash.digest('hex');
    return hashHandle(file, this.size);
  }

  /**
   * Streams the chunks in seq order into `into` (or nowhere, when the bytes are stored already), hashing them.
   * Returns the sha256 of what was joined.
   */
  async join(into: fs.FileHandle | null): Promise<string> {
    await this.#writing;
    const hash = createHash('sha256');
    const assembled = await this.#assembled;
    for (const seq of this.#seqs()) {
      const length = this.#chunks.get(seq)!;
      const offset = this.#placed.get(seq);
      let data: Buffer;
      if (offset !== undefined && assembled) {
        data = Buffer.alloc(length);
        await readAll(assembled, data, offset);
      } else {
        data = await fs.readFile(join(this.dir, String(seq)), {
          flag: constants.O_RDONLY | constants.O_NOFOLLOW,
        });
      }
      hash.update(data);
      if (into) await into.writeFile(data);
    }
    return hash.digest('hex');
  }

  /** Removes the chunk files. Safe to call twice. */
  async discard(): Promise<void> {
    // No write may land in the folder after it is removed.
    await this.#writing;
    const file = await this.#assembled?.catch(() => undefined);
    this.#assembled = undefined;
    await file?.close().catch(() => undefined);
    await fs.rm(this.dir, { recursive: true, force: true });
  }

  #seqs(): number[] {
    return [...this.#chunks.keys()].sort((a, b) => a - b);
  }
}

async function writeAll(file: fs.FileHandle, data: Buffer, offset: number): Promise<void> {
  for (let done = 0; done < data.length;) {
    const { bytesWritten } = await file.write(data, done, data.length - done, offset + done);
    done += bytesWritten;
  }
}

async function readAll(file: fs.FileHandle, into: Buffer, offset: number): Promise<void> {
  for (let done = 0; done < into.length;) {
    const { bytesRead } = await file.read(into, done, into.length - done, offset + done);
    if (bytesRead === 0) throw new Error('the assembled upload is shorter than its chunks');
    done += bytesRead;
  }
}

/** The error of a chunk whose write failed (a full disk, most often): the upload must begin again. */
function writeFailed(id: string, seq: number, err: unknown): ErrorInfo {
  const cause = fsError(err, `chunk ${seq} of upload ${id}`, 'store').toInfo();
  return {
    code: cause.code,
    message: `${cause.message} Upload ${id} was discarded.`,
    remediation: `${cause.remediation} Then begin the upload again with put_sample_begin.`,
  };
}
