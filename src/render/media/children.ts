import type { Worker } from 'node:worker_threads';

/**
 * The decoder children of one worker thread, and a graceful stop. A thread that is terminated cannot reap its
 * children: a killed decoder would stay a zombie until the process exits. So a worker is first asked to stop,
 * ends its decoders itself and waits here until each has been reaped, and only then is it terminated.
 */
export class DecoderChildren {
  readonly #alive = new Set<number>();
  readonly #report: ((pid: number, alive: boolean) => void) | undefined;
  #wake: (() => void) | null = null;

  /** `report` hears of every start and end too (the owning thread keeps its own list, to kill leftovers). */
  constructor(report?: (pid: number, alive: boolean) => void) {
    this.#report = report;
  }

  /** For MediaAccess.onChild. */
  readonly onChild = (pid: number, alive: boolean): void => {
    if (alive) this.#alive.add(pid);
    else this.#alive.delete(pid);
    this.#report?.(pid, alive);
    if (this.#alive.size === 0) this.#wake?.();
  };

  /** Resolves true once no decoder is alive (reaped), false after `timeoutMs`. */
  async gone(timeoutMs: number): Promise<boolean> {
    if (this.#alive.size === 0) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}

/** How long a stopping worker may take to end and reap its decoders before it is terminated anyway. */
export const GRACEFUL_STOP_MS = 1000;

/** SIGKILL to a child that outlived its thread; one that has already gone is fine. */
export function killChild(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already exited.
  }
}

/**
 * Posts `{type: 'stop'}` to `worker` and resolves when it answers (`listen` is handed the function its `stopped`
 * message calls), when it exits, or after a bound (a frame being drawn delays the answer).
 */
export function askToStop(worker: Worker, listen: (answered: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      // A worker kept for another render is asked again: no listener of this stop may stay on it.
      worker.off('exit', done);
      resolve();
    };
    const timer = setTimeout(done, GRACEFUL_STOP_MS + 200);
    listen(done);
    worker.once('exit', done);
    try {
      worker.postMessage({ type: 'stop' });
    } catch {
      done();
    }
  });
}
