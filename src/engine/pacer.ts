/**
 * Lets the event loop run during long runs of commands. Most commands never await anything that leaves the
 * microtask queue, so thousands of them in a row (a batch, a bridge group) would hold back pings, other
 * requests, socket keepalives and timers until the last one ends. The engine paces every command through here.
 */
export class Pacer {
  readonly #everyMs: number;
  #last = performance.now();

  /** `everyMs`: how long commands may run back to back before the event loop gets a turn. */
  constructor(everyMs = 10) {
    this.#everyMs = everyMs;
  }

  /** Yields (setImmediate) when `everyMs` have passed since the last yield; otherwise returns at once. */
  async pace(): Promise<void> {
    if (performance.now() - this.#last < this.#everyMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#last = performance.now();
  }
}
