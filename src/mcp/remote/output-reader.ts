/**
 * Reads a slice of a file this server wrote, for get_output: bounded length, the file's size and its sha256
 * (cached per file version, so fetching a large output in chunks hashes it once).
 */
import { constants, promises as fs } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Confinement } from '../../confinement/types.js';
import type { ErrorInfo } from '../../engine/index.js';
import { sameFile } from './file-stamp.js';
import type { WrittenFiles } from './written-files.js';
import { hashHandle } from './file-hash.js';
import { ChunkBuffers } from './chunk-buffers.js';

/** The most bytes one get_output returns (before base64): 8 MiB, as the chunks of put_sample. */
export const OUTPUT_CHUNK_MAX = 8 * 1024 * 1024;

export interface OutputSlice {
  path: string;
  size: number;
  sha256: string;
  offset: number;
  length: number;
  /** True when this slice reaches the end of the file. */
  eof: boolean;
  content: Buffer;
  /** Gives `content`'s memory back for later calls: call it once `content` is no longer read. */
  release: () => void;
}

export type OutputRead = { ok: true; slice: OutputSlice } | { ok: false; error: ErrorInfo };

const notWritten = (path: string): ErrorInfo => ({
  code: 'bad_argument',
  message: `get_output serves only files this server wrote since it started, and ${path} is not one of them.`,
  remediation:
    'Pass a path from a result of renderQueue.render (files.first/last, manifest), project.save or render_preview with output.',
});

const replaced = (path: string): ErrorInfo => ({
  code: 'bad_argument',
  message: `${path} is no longer the file this server wrote there: it was replaced or re-linked since, so get_output does not serve it.`,
  remediation: 'Render or save it again, then fetch it right away with the path the result gives.',
});

export class OutputReader {
  readonly #written: WrittenFiles;
  readonly #confinement: Confinement | undefined;
  /** sha256 per file version (device, inode, size, mtime): a file rewritten in place gets a new entry. */
  readonly #hashes = new Map<string, Promise<string>>();
  readonly #buffers = new ChunkBuffers(OUTPUT_CHUNK_MAX);

  constructor(written: WrittenFiles, confinement: Confinement | undefined) {
    this.#written = written;
    this.#confinement = confinement;
  }

  async read(path: string, offset: number, length: number): Promise<OutputRead> {
    if (!isAbsolute(path))
      return {
        ok: false,
        error: {
          code: 'bad_argument',
          message: `get_output needs an absolute path; got "${path}".`,
          remediation: 'Pass the path exactly as the render or save result gave it.',
        },
      };
    let real: string;
    try {
      real = await fs.realpath(path);
    } catch {
      return {
        ok: false,
        error: {
          code: 'no_such_file',
          message: `${path} does not exist.`,
          remediation: 'Render or save it again, then fetch it.',
        },
      };
    }
    // Security: only files this process wrote, and while confined only inside a write root as well.
    const written = await this.#written.get(real);
    if (!written) return { ok: false, error: notWritten(path) };
    const outside = this.#confinement?.checkPath(real, 'write', 'path') ?? null;
    if (outside) return { ok: false, error: outside };
    // Security: no-follow at the final open, so a link swapped in after the check is not read through.
    const file = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const st = await file.stat();
      if (!st.isFile()) return { ok: false, error: notWritten(path) };
      // Security: the path must still hold the file this process wrote, not one put in its place since (a hard
      // link to /etc/passwd keeps the path and passes the no-follow open).
      if (!sameFile(st, written)) return { ok: false, error: replaced(path) };
      const start = Math.min(offset, st.size);
      const want = Math.min(length, OUTPUT_CHUNK_MAX, st.size - start);
      // Every byte is read into it below (a short read is cut off), so it need not be zeroed first.
      const { buffer: content, release } = this.#buffers.take();
      let got = 0;
      let sha256: string;
      try {
        while (got < want) {
          const { bytesRead } = await file.read(content, got, want - got, start + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        sha256 = await this.#hash(file, st);
      } catch (err) {
        release();
        throw err;
      }
      return {
        ok: true,
        slice: {
          path,
          size: st.size,
          sha256,
          offset: start,
          length: got,
          eof: start + got >= st.size,
          content: content.subarray(0, got),
          release,
        },
      };
    } finally {
      await file.close();
    }
  }

  /** The whole file's sha256, read through the handle already open (never by path again). */
  #hash(
    file: fs.FileHandle,
    st: { dev: number; ino: number; size: number; mtimeMs: number },
  ): Promise<string> {
    const key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    let hash = this.#hashes.get(key);
    if (!hash) {
      // Bounded: one entry per file version fetched, the oldest dropped first.
      if (this.#hashes.size >= HASH_CACHE_SIZE) this.#hashes.delete(this.#hashes.keys().next().value!);
      hash = hashHandle(file, st.size);
      this.#hashes.set(key, hash);
      hash.catch(() => this.#hashes.delete(key));
    }
    return hash;
  }
}

const HASH_CACHE_SIZE = 256;
