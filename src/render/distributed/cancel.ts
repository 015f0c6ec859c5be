/**
 * Cancelling a distributed render. BullMQ cancels a job only inside the worker process that runs it, so the
 * coordinator broadcasts: it sets a key naming the render (a worker checks it before it starts a chunk, so a
 * chunk taken after the cancel is not rendered) and publishes the render's id (a worker rendering one of its
 * chunks stops it through the chunk's AbortSignal, and the render queue's cleanup removes exactly its files).
 */
import type { Redis } from 'ioredis';

export const CANCEL_CHANNEL = 'effectcraft-render:cancel';

// Long enough to outlive any chunk still queued for the render; Redis then forgets it on its own.
const CANCEL_TTL_SECONDS = 24 * 60 * 60;

const cancelKey = (renderId: string) => `effectcraft-render:cancelled:${renderId}`;

/** Marks `renderId` cancelled and tells every worker listening. */
export async function broadcastCancel(client: Redis, renderId: string): Promise<void> {
  await client.set(cancelKey(renderId), '1', 'EX', CANCEL_TTL_SECONDS);
  await client.publish(CANCEL_CHANNEL, renderId);
}

/** Whether `renderId` was cancelled. */
export async function isCancelled(client: Redis, renderId: string): Promise<boolean> {
  return (await client.exists(cancelKey(renderId))) === 1;
}
