/**
 * Writes an HTTP response's bytes with each stand-in of its splice table replaced by its bytes' base64
 * (http-splice.ts), across chunk boundaries, with backpressure.
 *
 * The base64 is made a slice at a time into a few buffers that are reused once the socket has taken them, never
 * as one 11 MB string. Such a string, its copy as bytes, or even small slices that wait in the socket's queue
 * outlive a scavenge and become old external memory, which V8 answers with a full collection on nearly every
 * get_output call: 15 ms a call in the server, measured over 300 calls. Reused buffers allocate nothing.
 */
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  STAND_IN_LENGTH,
  STAND_IN_PREFIX,
  releaseAll,
  type LargeBytes,
  type SpliceTable,
} from './http-splice.js';

/** Raw bytes per base64 slice: a multiple of 3, so the slices' base64 joins into the whole's (no padding). */
const SLICE = 3 * 16 * 1024;
/** Buffers of base64 per response: one being filled while the others travel. */
const RING = 4;

/** Splits a byte stream into plain bytes and the table's values, each stand-in replaced once. */
class StandInScanner {
  readonly #table: SpliceTable;
  #carry: Buffer = Buffer.alloc(0);

  constructor(table: SpliceTable) {
    this.#table = table;
  }

  /** The parts of `chunk` that can be written now; what could be the start of a stand-in is kept back. */
  feed(chunk: Buffer): (Buffer | LargeBytes)[] {
    // A chunk passes untouched while the table is empty: a stand-in cannot reach the stream before it is set.
    if (this.#table.size === 0 && this.#carry.length === 0) return [chunk];
    const buf = this.#carry.length ? Buffer.concat([this.#carry, chunk]) : chunk;
    const parts: (Buffer | LargeBytes)[] = [];
    let from = 0;
    let keepFrom = -1;
    for (let at = buf.indexOf(STAND_IN_PREFIX, from); at >= 0; at = buf.indexOf(STAND_IN_PREFIX, from)) {
      if (at + STAND_IN_LENGTH > buf.length) {
        keepFrom = at;
        break;
      }
      const id = buf.toString('latin1', at, at + STAND_IN_LENGTH);
      const value = this.#table.get(id);
      if (value === undefined) {
        parts.push(buf.subarray(from, at + STAND_IN_PREFIX.length));
        from = at + STAND_IN_PREFIX.length;
        continue;
      }
      this.#table.delete(id);
      parts.push(buf.subarray(from, at), value);
      from = at + STAND_IN_LENGTH;
    }
    if (keepFrom < 0) keepFrom = Math.max(from, buf.length - (STAND_IN_PREFIX.length - 1));
    if (keepFrom > from) parts.push(buf.subarray(from, keepFrom));
    this.#carry = Buffer.from(buf.subarray(keepFrom));
    return parts.filter((p) => !Buffer.isBuffer(p) || p.length > 0);
  }

  /** What was kept back, once the stream has ended. */
  end(): Buffer[] {
    return this.#carry.length ? [this.#carry] : [];
  }
}

const closedEarly = () => new Error('the response closed before it was written');

/**
 * Settles when `event` comes (or the write's callback, when `chunk` is given: the bytes have been handed on and
 * may be reused), or fails when `sink` closes first (a client that went away).
 */
function until(sink: Writable, event: 'drain' | 'written', chunk?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error | null) => {
      sink.off('drain', onDrain).off('close', onClose).off('error', done);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(closedEarly());
    sink.on('close', onClose).on('error', done);
    if (event === 'drain') sink.on('drain', onDrain);
    else sink.write(chunk!, done);
  });
}

const written = (sink: Writable, chunk: Buffer) => until(sink, 'written', chunk);

/** Waits until `sink` wants more. */
function drained(sink: Writable): Promise<void> {
  if (sink.destroyed) return Promise.reject(closedEarly());
  return sink.writableNeedDrain ? until(sink, 'drain') : Promise.resolve();
}

async function writeBase64(sink: Writable, bytes: Buffer): Promise<void> {
  const ring = Array.from({ length: Math.min(RING, Math.ceil(bytes.length / SLICE)) }, () =>
    Buffer.allocUnsafe((SLICE / 3) * 4),
  );
  const travelling: (Promise<void> | undefined)[] = [];
  try {
    for (let i = 0, k = 0; i < bytes.length; i += SLICE, k = (k + 1) % ring.length) {
      await travelling[k];
      const n = ring[k]!.write(bytes.toString('base64', i, Math.min(bytes.length, i + SLICE)), 0, 'latin1');
      const write = written(sink, ring[k]!.subarray(0, n));
      // Handled at once: a write that fails while another is awaited must not be an unhandled rejection (which
      // would end the server); it is still awaited below, and its error is the one reported.
      write.catch(() => undefined);
      travelling[k] = write;
    }
  } finally {
    // Every write settles before the bytes are released (a failed one is the error to report).
    await Promise.allSettled(travelling);
  }
  await Promise.all(travelling);
}

/**
 * Writes `source` to `sink` with the table's stand-ins spliced, then ends `sink`. Every value of the table is
 * released by the time this settles: after its bytes were written, or when the response failed first.
 */
export async function writeSpliced(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  table: SpliceTable,
  sink: Writable,
): Promise<void> {
  const scanner = new StandInScanner(table);
  /** Values taken from the table whose bytes are not written yet. */
  const pending = new Set<LargeBytes>();
  const writePart = async (part: Buffer | LargeBytes) => {
    if (Buffer.isBuffer(part)) {
      if (sink.destroyed) throw closedEarly();
      sink.write(part);
      return drained(sink);
    }
    pending.delete(part);
    try {
      await writeBase64(sink, part.bytes);
    } finally {
      part.release?.();
    }
  };
  try {
    for await (const chunk of source) {
      const parts = scanner.feed(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      for (const part of parts) if (!Buffer.isBuffer(part)) pending.add(part);
      for (const part of parts) await writePart(part);
    }
    for (const part of scanner.end()) await writePart(part);
    sink.end();
    await finished(sink);
  } finally {
    // Values of a chunk not reached before a failure, and stand-ins the response never held.
    for (const part of pending) part.release?.();
    releaseAll(table);
  }
}
