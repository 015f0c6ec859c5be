/**
 * Frame requests while scrubbing: the newest wanted frame wins. Requests are numbered; at most `inFlight` are
 * out at once and positions passed over meanwhile are never asked for (the server answers one connection's calls
 * in order, so a queue of old positions would only delay the one the person stopped at). A reply older than the
 * one on screen is dropped, so a late answer never replaces a newer frame and the frame shown at rest is the
 * answer to the last request. Pure (no DOM), so it is unit-tested in Node.
 */

export interface LatestFramesOptions<T> {
  /** Fetches one frame; rejects or resolves with the value to show. */
  fetch(frame: number): Promise<T>;
  /** Called with each reply that is newer than the one shown. */
  show(frame: number, value: T): void;
  /** Called when the newest request failed (older failures are as stale as older frames). */
  fail(frame: number, error: unknown): void;
  /** Called with each reply dropped because a newer one was already on screen. */
  dropped?(frame: number): void;
  /** Requests out at once (default 2: the next frame is asked for while one renders). */
  inFlight?: number;
}

export class LatestFrames<T> {
  readonly #options: LatestFramesOptions<T>;
  readonly #limit: number;
  #wanted: number | undefined;
  #lastAsked: number | undefined;
  #issued = 0;
  #shown = 0;
  #out = 0;
  #dropped = 0;
  #disposed = false;

  constructor(options: LatestFramesOptions<T>) {
    this.#options = options;
    this.#limit = Math.max(1, options.inFlight ?? 2);
  }

  /** Replies dropped because a newer one was already on screen. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Stops asking and delivering: replies still out are ignored (the view moved on to another composition). */
  dispose(): void {
    this.#disposed = true;
  }

  /** Asks for `frame`; a later call before it is sent replaces it. */
  want(frame: number): void {
    this.#wanted = frame;
    this.#pump();
  }

  /** Asks for `frame` again even if it was the last one asked for (after an edit, or a failure). */
  refresh(frame: number): void {
    this.#lastAsked = undefined;
    this.want(frame);
  }

  #pump(): void {
    const frame = this.#wanted;
    if (this.#disposed || frame === undefined || frame === this.#lastAsked || this.#out >= this.#limit)
      return;
    this.#wanted = undefined;
    this.#lastAsked = frame;
    const seq = ++this.#issued;
    this.#out++;
    this.#options.fetch(frame).then(
      (value) => this.#settle(seq, frame, () => this.#options.show(frame, value)),
      (error: unknown) => this.#settle(seq, frame, () => this.#options.fail(frame, error)),
    );
  }

  #settle(seq: number, frame: number, deliver: () => void): void {
    this.#out--;
    if (this.#disposed) return;
    if (seq > this.#shown) {
      this.#shown = seq;
      deliver();
    } else {
      this.#dropped++;
      this.#options.dropped?.(frame);
    }
    this.#pump();
  }
}
