/**
 * Watches that an item's flow is still in Redis while the coordinator waits for it. Redis restarted without
 * persistence (the setup distributed.md recommends: `--save '' --appendonly no`), flushed, or evicting keys
 * answers PINGs again within a second, so watchRedis sees nothing, but the item's jobs are gone: no worker will
 * ever complete the parent, and the render used to wait for ever (a 600-frame item, Redis restarted after its
 * first chunk: still waiting two minutes later, with the workers logging "Missing key for job").
 */
import type { Queue } from 'bullmq';

// The same period as watchRedis's PINGs: a lost flow is said within about as long as a lost Redis.
const WATCH_INTERVAL_MS = 1000;

export interface FlowWatch {
  /** Resolves with the cause once the flow's parent job is no longer in Redis; never rejects. */
  readonly gone: Promise<Error>;
  close(): void;
}

/**
 * Polls the state of the parent job `parentId` until closed. A failed poll (Redis unreachable) is left to
 * watchRedis; only an answer that the job does not exist counts.
 */
export function watchFlow(queue: Queue, parentId: string): FlowWatch {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const gone = new Promise<Error>((resolve) => {
    const tick = async () => {
      const state = await queue.getJobState(parentId).catch(() => 'unreachable');
      if (closed) return;
      if (state === 'unknown')
        return resolve(
          new Error('its jobs are gone: it was restarted without persistence, flushed, or evicted them'),
        );
      timer = setTimeout(() => void tick(), WATCH_INTERVAL_MS);
    };
    timer = setTimeout(() => void tick(), WATCH_INTERVAL_MS);
  });
  return {
    gone,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
