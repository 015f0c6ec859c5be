/**
 * Which chunk failures are tried again, and how. A failure that may pass on another try, or on another worker
 * (a crash, an io_error, ffmpeg dying, a footage file this worker cannot read, ffmpeg missing on this machine),
 * is thrown as a plain Error: BullMQ puts the chunk back after a backoff, for whichever worker takes it first.
 * A failure every worker would meet again (a bad argument, a job of another version, a cancelled render) is an
 * UnrecoverableError: the chunk fails at once, whatever attempts are left.
 */
import { UnrecoverableError } from 'bullmq';
import type { ErrorCode, ErrorInfo } from '../../engine/index.js';
import { encodeFailure } from './protocol.js';

export { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS } from './retry-defaults.js';

/** Codes of failures that another try (here or on another worker) may not meet. */
const TRANSIENT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'io_error',
  'no_such_file',
  'render_failed',
  'missing_dependency',
  'timeout',
  'busy',
]);

/** Whether a chunk that failed with `code` is worth another try. */
export function isTransient(code: ErrorCode): boolean {
  return TRANSIENT.has(code);
}

/** The error a worker throws for `error`: retried by BullMQ when transient, else final. */
export function jobFailure(error: ErrorInfo): Error {
  const reason = encodeFailure(error);
  return isTransient(error.code) ? new Error(reason) : new UnrecoverableError(reason);
}

/**
 * BullMQ's retry options of a chunk job: `attempts` tries in all, exponential backoff (`backoffMs`, then twice
 * that, ...), so a failure that comes from a busy or restarting machine gets time to pass without a fixed wait
 * that is too short for one and too long for another.
 */
export function retryOptions(attempts: number, backoffMs: number) {
  return { attempts, backoff: { type: 'exponential' as const, delay: backoffMs } };
}

/** How often a worker hands back a retried chunk it failed before, and how long it rests each time (ms). */
const HANDBACKS = 3;
export const HANDBACK_REST_MS = 500;
// Chunk ids remembered at most: a long-running worker must not grow without bound.
const REMEMBERED = 1000;

/**
 * The chunks a worker failed with a transient error. BullMQ gives a retried job to whichever worker asks
 * first, often the one that just failed it (it is idle). A worker that takes a chunk it failed hands it back
 * and rests (HANDBACK_REST_MS) so that another worker, once free, takes it; after HANDBACKS times (no other
 * worker came: a cluster of one, or all busy) it renders the chunk itself.
 */
export class FailedHere {
  readonly #handbacks = new Map<string, number>();

  /** Remembers that the chunk `jobId` failed here with a transient error. */
  remember(jobId: string): void {
    this.#handbacks.set(jobId, 0);
    if (this.#handbacks.size > REMEMBERED) this.#handbacks.delete(this.#handbacks.keys().next().value!);
  }

  /** Whether to hand the chunk `jobId` back rather than render it (counted as one hand-back). */
  handBack(jobId: string): boolean {
    const n = this.#handbacks.get(jobId);
    if (n === undefined) return false;
    if (n >= HANDBACKS) {
      this.#handbacks.delete(jobId);
      return false;
    }
    this.#handbacks.set(jobId, n + 1);
    return true;
  }
}
