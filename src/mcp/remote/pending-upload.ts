/**
 * One chunked upload between put_sample_begin and put_sample_finish. Chunks may arrive in any order and may be
 * resent: each is kept as its own file named by its seq (a resend replaces it by rename), and finish joins them
 * in seq order. Chunk sizes may differ, so nothing is placed by offset until every seq from 0 is there.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ErrorInfo } from '../../engine/index.js';

/** Security: a new file of ours, never one a planted link points at. */
export const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export class PendingUpload {
  readonly id: string;
  readonly name: string;
  readonly sha256: string;
  readonly size: number;
  /** Folder of this upload's chunk files (0700, inside the store's partial folder). */
  readonly dir: string;
  lastUsed: number;
  /** Set by finish: chunks that arrive after it are refused, and a second finish waits its turn. */
  finishing = false;
  readonly #chunks = new Map<number, number>();

  constructor(init: { id: string; name: string; sha256: string; size: number; dir: string; now: number }) {
    this.id = init.id;
    this.name = init.name;
    this.sha256 = init.sha256;
    this.size = init.size;
    this.dir = init.dir;
    this.lastUsed = init.now;
  }

  /** Bytes held, a resent seq counted once. */
  get received(): number {
    let n = 0;
    for (const bytes of this.#chunks.values()) n += bytes;
    return n;
  }

  /** Keeps chunk `seq` (temporary + rename, so a resend replaces it whole); an error when it overflows `size`. */
  async put(seq: number, data: Buffer, now: number): Promise<ErrorInfo | null> {
    const total = this.received - (this.#chunks.get(seq) ?? 0) + data.length;
    if (total > this.size)
      return {
        code: 'bad_argument',
        message: `Chunk ${seq} would bring upload ${this.id} to ${total} bytes, more than the ${this.size} given to put_sample_begin.`,
        remediation:
          'Send each chunk once per seq (a resend replaces it), or begin again with put_sample_begin and the right size.',
      };
    const tmp = join(this.dir, `.${seq}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await fs.open(tmp, CREATE_NEW, 0o600);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, join(this.dir, String(seq)));
    this.#chunks.set(seq, data.length);
    this.lastUsed = now;
    return null;
  }

  /** Null when every chunk is there; else the error that names the first missing seq. */
  missing(): ErrorInfo | null {
    const seqs = [...this.#chunks.keys()].sort((a, b) => a - b);
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
   * Streams the chunks in seq order into `into` (or nowhere, when the bytes are stored already), hashing them.
   * Returns the sha256 of what was joined.
   */
  async join(into: fs.FileHandle | null): Promise<string> {
    const hash = createHash('sha256');
    const seqs = [...this.#chunks.keys()].sort((a, b) => a - b);
    for (const seq of seqs) {
      const data = await fs.readFile(join(this.dir, String(seq)), {
        flag: constants.O_RDONLY | constants.O_NOFOLLOW,
      });
      hash.update(data);
      if (into) await into.writeFile(data);
    }
    return hash.digest('hex');
  }

  /** Removes the chunk files. Safe to call twice. */
  async discard(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}
