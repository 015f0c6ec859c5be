/**
 * The retry defaults of distributed renders, apart from retry.ts so that the CLI's flag specs and --help can
 * name them without loading BullMQ (a quarter of a second of start-up).
 */

/** Tries of a chunk when `render --redis` is not given --attempts. */
export const DEFAULT_ATTEMPTS = 3;

/** The first retry's delay in ms when not given --backoff; each later retry waits twice as long as the last. */
export const DEFAULT_BACKOFF_MS = 1000;
