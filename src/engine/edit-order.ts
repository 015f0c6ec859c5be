/**
 * The one owner of edit order. Every edit and every group waits its turn in one first-come queue: a plain edit
 * holds the turn while it runs, a group holds it from its beginning to its end. So no other caller's edit can
 * land inside an open group and be thrown away when the group rolls back, and an undo can never split a group.
 * Waits are bounded: a caller that does not get its turn in time gets `busy` (with what holds the turn), and
 * a caller whose signal aborts while it waits gets `cancelled`; neither has changed anything.
 */
import type { ErrorInfo } from './errors.js';

/** Who holds (or wants) the turn: named in the `busy` error a waiting caller gets. */
export interface TurnHolder {
  /** "edit Add Solid Layer" or "group Batch". */
  readonly describe: string;
}

export interface WaitOptions {
  /** How long to wait for the turn before giving up with `busy`. */
  waitMs: number;
  signal?: AbortSignal;
}

export type Turn = { ok: true; release: () => void } | { ok: false; error: ErrorInfo };

interface Waiter {
  holder: TurnHolder;
  grant: () => void;
}

export class EditOrder {
  #holder: { holder: TurnHolder; since: number } | null = null;
  readonly #queue: Waiter[] = [];
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** What holds the turn now, if anything. */
  get holder(): TurnHolder | null {
    return this.#holder?.holder ?? null;
  }

  /**
   * Queues for the turn. The place in the queue is taken synchronously, so callers are served in the order
   * they called; the promise settles when the turn is theirs, the wait runs out, or the signal aborts.
   */
  acquire(holder: TurnHolder, options: WaitOptions): Promise<Turn> {
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve({ ok: false, error: cancelledWhileWaiting(holder) });
    return new Promise<Turn>((resolve) => {
      let done = false;
      const settle = (turn: Turn) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(turn);
      };
      const leave = (error: ErrorInfo) => {
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
        settle({ ok: false, error });
      };
      const waiter: Waiter = {
        holder,
        grant: () => {
          this.#holder = { holder, since: this.#now() };
          settle({ ok: true, release: once(() => this.#release(holder)) });
        },
      };
      const timer = setTimeout(() => leave(this.#busy(holder, options.waitMs)), options.waitMs);
      const onAbort = () => leave(cancelledWhileWaiting(holder));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      this.#next();
    });
  }

  #release(holder: TurnHolder): void {
    if (this.#holder?.holder !== holder) return;
    this.#holder = null;
    this.#next();
  }

  #next(): void {
    if (this.#holder) return;
    this.#queue.shift()?.grant();
  }

  #busy(waiting: TurnHolder, waitMs: number): ErrorInfo {
    const held = this.#holder;
    const what = held
      ? `${held.holder.describe} has held the document's edit order for ${Math.round((this.#now() - held.since) / 1000)} s`
      : 'other edits were ahead of it';
    return {
      code: 'busy',
      message: `The ${waiting.describe} waited ${Math.round(waitMs / 1000)} s for its turn and was not applied: ${what}.`,
      remediation:
        'Nothing changed. Retry once the other caller is done (an atomic batch or a bridge group holds the order until it ends; a bridge group left open is rolled back after 5 minutes).',
    };
  }
}

function cancelledWhileWaiting(holder: TurnHolder): ErrorInfo {
  return {
    code: 'cancelled',
    message: `The ${holder.describe} was cancelled while it waited for its turn; nothing changed.`,
    remediation: 'Run it again if you still need it.',
  };
}

function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn();
  };
}
