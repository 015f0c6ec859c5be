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

/** Tries of a chunk when `render --redis` is not given --attempts. */
export const DEFAULT_ATTEMPTS = 3;

/** The first retry's delay in ms when not given --backoff; each later retry waits twice as long as the last. */
export const DEFAULT_BACKOFF_MS = 1000;

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
