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

export interface Lease {
  /** Whether the lease ran out at some point (this process paused or starved past LEASE_SECONDS). */
  lapsed(): boolean;
  /** Stops renewing and drops the lease. */
  release(): Promise<void>;
}

/** Takes the lease of `renderId` and renews it until released. */
export async function holdLease(client: Redis, renderId: string): Promise<Lease> {
  await client.set(leaseKey(renderId), '1', 'EX', LEASE_SECONDS);
  let renewed = Date.now();
  let lapsed = false;
  // A failed renewal is Redis lost: the coordinator's own watch reports that; the next renewal may succeed.
  const timer = setInterval(() => {
    // A process stopped (SIGSTOP, a laptop asleep) or starved runs its timer late: the workers may have let the
    // render go meanwhile, which its result must then say rather than call it stopped.
    if (Date.now() - renewed > LEASE_SECONDS * 1000) lapsed = true;
    void client.set(leaseKey(renderId), '1', 'EX', LEASE_SECONDS).then(
      () => void (renewed = Date.now()),
      () => undefined,
    );
  }, LEASE_RENEW_MS);
  timer.unref();
  return {
    lapsed: () => lapsed,
    async release() {
      clearInterval(timer);
      await client.del(leaseKey(renderId)).catch(() => undefined);
    },
  };
}

/** The error of an item whose chunks the workers let go because this process's lease lapsed. */
export const LEASE_LAPSED = {
  code: 'render_failed',
  message: `This render's lease lapsed: this process did not renew it for over ${LEASE_SECONDS} s (it was paused, asleep or starved of CPU), so the workers took it for gone and let its chunks go.`,
  remediation: 'Render again, and keep the process running (not stopped or suspended) until it ends.',
} as const;

/** Whether `renderId`'s coordinator is gone: its lease ran out (or the render ended). */
export async function isAbandoned(client: Redis, renderId: string): Promise<boolean> {
  return (await client.exists(leaseKey(renderId))) === 0;
}
