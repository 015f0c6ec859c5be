/**
 * Hands rendered frames to an exporter. Workers finish batches out of order; for ordered exporters (video)
 * frames wait in a reorder buffer until their turn. The job bounds that buffer by not dispatching a batch
 * until enough earlier frames are written (`waitUntilWritten`).
 */
import type { Exporter, FrameSize } from './exporters/types.js';

interface Pending {
  data: Uint8Array;
  size: FrameSize;
  /** Called once the frame is written, or dropped: its buffer may then be reused. */
  release?: () => void;
}

export class FrameWriter {
  readonly #exporter: Exporter;
  readonly #order: readonly number[];
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #written = 0;
  #chain: Promise<void> = Promise.resolve();
  #error: unknown = null;
  #closed = false;
  readonly #waiters: Array<() => void> = [];
  readonly #onWritten: (written: number) => void;

  /** `order`: the frames to be written, in frame order. */
  constructor(exporter: Exporter, order: readonly number[], onWritten: (written: number) => void) {
    this.#exporter = exporter;
    this.#order = order;
    this.#onWritten = onWritten;
  }

  get written(): number {
    return this.#written;
  }

  /** The first write error, if any (the job stops dispatching once there is one). */
  get error(): unknown {
    return this.#error;
  }

  /** Accepts a frame from a worker; writes are serialised so backpressure reaches the workers' dispatch. */
  push(frame: number, data: Uint8Array, size: FrameSize, release?: () => void): void {
    if (this.#error || this.#closed) return;
    if (!this.#exporter.ordered) {
      this.#enqueue(frame, { data, size, release });
      return;
    }
    this.#pending.set(frame, { data, size, release });
    while (this.#next < this.#order.length && this.#pending.has(this.#order[this.#next]!)) {
      const f = this.#order[this.#next++]!;
      const p = this.#pending.get(f)!;
      this.#pending.delete(f);
      this.#enqueue(f, p);
    }
  }

  #enqueue(frame: number, p: Pending): void {
    this.#chain = this.#chain.then(async () => {
      if (this.#error) return;
      try {
        await this.#exporter.writeFrame(frame, p.data, p.size);
        this.#written++;
        this.#onWritten(this.#written);
        p.release?.();
      } catch (err) {
        this.#fail(err);
      }
      this.#waiters.splice(0).forEach((w) => w());
    });
  }

  /**
   * Holds every write until `ready` settles (the encoder started, the footage checked) while frames are rendered
   * meanwhile. A rejection is the writer's error: nothing is written, and the job stops dispatching.
   */
  holdUntil(ready: Promise<unknown>): void {
    this.#chain = this.#chain
      .then(() => ready)
      .then(
        () => undefined,
        (err: unknown) => {
          this.#fail(err);
          this.#waiters.splice(0).forEach((w) => w());
        },
      );
  }

  #fail(err: unknown): void {
    this.#error ??= err;
    this.#pending.clear();
  }

  /** Resolves once `count` frames are written or a write failed. */
  async waitUntilWritten(count: number): Promise<void> {
    while (this.#written < count && !this.#error) await new Promise<void>((r) => this.#waiters.push(r));
  }

  /** Accepts no more frames (a stopped or failed job): cleanup then sees every file that will ever be written. */
  close(): void {
    this.#closed = true;
    this.#pending.clear();
  }

  /** Waits for every accepted write; throws the first write error. */
  async flush(): Promise<void> {
    await this.#chain;
    if (this.#error) throw this.#error;
  }
}
