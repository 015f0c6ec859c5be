/**
 * Render workers kept ready between renders. Starting one costs 150–250 ms on a 2-core machine (the thread, its
 * modules, Skia), all of it before the first frame: a session that renders again and again (an agent checking
 * its work, the studio, a farm node) paid it every time, and a one-second render spent a sixth of its time there.
 * A worker whose render ended well (it stopped its job and reaped its decoders: pool.ts, `release`) waits here
 * for the next render with the same entry, renderer module and priority; it holds no document, no renderer and
 * no decoder meanwhile, only its loaded modules (~40 MB). It is not waited for by the process (unref), and ends
 * after WARM_IDLE_MS without a render. Process-wide: a worker takes everything a job needs from its `job`
 * message and reads no file of its own, so one session's worker can serve another's render.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { WorkerBoot } from './protocol.js';

/** How long an idle worker waits for another render before it ends. */
export const WARM_IDLE_MS = 30_000;

interface Idle {
  worker: Worker;
  timer: NodeJS.Timeout;
  onExit: () => void;
}

const idle = new Map<string, Idle[]>();

/** Workers are interchangeable when they run the same entry, load the same renderer and run at the same priority. */
export function warmKey(workerUrl: URL, boot: WorkerBoot): string {
  return JSON.stringify([workerUrl.href, boot.rendererModule, boot.niceness]);
}

/** An idle worker for `key`, now the caller's (and waited for by the process again), or undefined. */
export function takeWarm(key: string): Worker | undefined {
  const entry = idle.get(key)?.pop();
  if (!entry) return undefined;
  clearTimeout(entry.timer);
  entry.worker.off('exit', entry.onExit);
  entry.worker.ref();
  return entry.worker;
}

/**
 * Keeps `worker` (stopped: no job) for the next render of `key`; past one render's worth of idle workers for
 * the key it is terminated instead.
 */
export function keepWarm(key: string, worker: Worker, idleMs = WARM_IDLE_MS): void {
  const list = idle.get(key) ?? [];
  if (list.length >= availableParallelism()) {
    void worker.terminate().catch(() => undefined);
    return;
  }
  const entry: Idle = {
    worker,
    timer: setTimeout(() => {
      drop(key, entry);
      void worker.terminate().catch(() => undefined);
    }, idleMs),
    // A worker that dies while idle (out of memory, say) is simply forgotten.
    onExit: () => drop(key, entry),
  };
  entry.timer.unref();
  worker.once('exit', entry.onExit);
  worker.unref();
  list.push(entry);
  idle.set(key, list);
}

function drop(key: string, entry: Idle): void {
  clearTimeout(entry.timer);
  const list = idle.get(key);
  const i = list?.indexOf(entry) ?? -1;
  if (i >= 0) list!.splice(i, 1);
  if (list && !list.length) idle.delete(key);
}

/** How many workers wait idle (all keys). */
export function warmCount(): number {
  let n = 0;
  for (const list of idle.values()) n += list.length;
  return n;
}

/** Ends every idle worker now (a session that shuts down, tests). */
export async function endWarmWorkers(): Promise<void> {
  const all = [...idle.values()].flat();
  idle.clear();
  await Promise.all(
    all.map((e) => {
      clearTimeout(e.timer);
      e.worker.off('exit', e.onExit);
      return e.worker.terminate().catch(() => undefined);
    }),
  );
}
