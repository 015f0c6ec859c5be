/**
 * A render's lease: while its coordinator (`render --redis`, `mcp --redis`) runs, it renews a key naming the
 * render every few seconds. A coordinator killed outright (SIGKILL, its machine lost) renews nothing and
 * broadcasts no cancel: its chunks used to go on rendering, the orphaned render was assembled half a minute
 * later for nobody, and a pipeline's retry of the same command waited behind it and then raced it to the same
 * output. Workers treat a render whose lease has run out as stopped: a chunk of it is not started, and one in
 * hand is stopped (its files removed, as on a cancel).
 */
import type { Redis } from 'ioredis';

/** How long a lease lasts unrenewed: a dead coordinator's render is let go within this (and a check's period). */
export const LEASE_SECONDS = 15;
/** How often the coordinator renews it, and how often a worker checks the renders of the chunks it holds. */
export const LEASE_RENEW_MS = 5_000;

const leaseKey = (renderId: string) => `effectcraft-render:lease:${renderId}`;

/** Takes the lease of `renderId` and renews it until the returned release is called (which drops it). */
export async function holdLease(client: Redis, renderId: string): Promise<() => Promise<void>> {
  await client.set(leaseKey(renderId), '1', 'EX', LEASE_SECONDS);
  // A failed renewal is Redis lost: the coordinator's own watch reports that; the next renewal may succeed.
  const timer = setInterval(
    () => void client.set(leaseKey(renderId), '1', 'EX', LEASE_SECONDS).catch(() => undefined),
    LEASE_RENEW_MS,
  );
  timer.unref();
  return async () => {
    clearInterval(timer);
    await client.del(leaseKey(renderId)).catch(() => undefined);
  };
}

/** Whether `renderId`'s coordinator is gone: its lease ran out (or the render ended). */
export async function isAbandoned(client: Redis, renderId: string): Promise<boolean> {
  return (await client.exists(leaseKey(renderId))) === 0;
}
