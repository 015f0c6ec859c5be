/**
 * Render workers kept ready between renders. Starting one costs 150–250 ms on a 2-core machine (the thread, its
 * modules, Skia), all of it before the first frame: a session that renders again and again (an agent checking
 * its work, the studio, a farm node) paid it every time, and a one-second render spent a sixth of its time there.
 * A worker whose render ended well (it stopped its job and reaped its decoders: pool.ts, `release`) waits here
 * for the next render with the same entry and renderer module; it holds no document, no renderer and no decoder
 * meanwhile, only its loaded modules (~40 MB). It is not waited for by the process (unref), and ends after
 * WARM_IDLE_MS without a render. Process-wide: a worker takes everything a job needs from its `job` message and
 * reads no file of its own, so one session's worker can serve another's render.
 *
 * Priority: a thread can lower its own priority but not raise it back (that takes privilege), so a worker serves
 * jobs at its own nice value or lower ones, which it lowers itself to (worker.ts); a worker started ahead of a
 * render (`prestartWorkers`, by the CLI while it opens the project) starts at the process's own.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { WorkerBoot } from './protocol.js';

/**
 * How long an idle worker waits for another render before it ends: two minutes, as an agent's or a person's next
 * render often comes more than a few seconds later (a model's turn, a look at the result), for ~40 MB a worker.
 */
export const WARM_IDLE_MS = 120_000;

interface Idle {
  worker: Worker;
  /** How far its priority is lowered already (WorkerBoot's niceness, or a job's lower one). */
  niceness: number;
  timer: NodeJS.Timeout;
  onExit: () => void;
}

/** Idle workers by entry and renderer module. */
const idle = new Map<string, Idle[]>();

/** Workers are interchangeable when they run the same entry and load the same renderer. */
export function warmKey(workerUrl: URL, rendererModule: string): string {
  return JSON.stringify([workerUrl.href, rendererModule]);
}

/**
 * An idle worker for `key` that can run at `niceness` (its own is that or less; the closest is taken), now the
 * caller's and waited for by the process again; or undefined.
 */
export function takeWarm(key: string, niceness: number): Worker | undefined {
  const list = idle.get(key) ?? [];
  let best: Idle | undefined;
  for (const e of list) if (e.niceness <= niceness && (!best || e.niceness > best.niceness)) best = e;
  if (!best) return undefined;
  drop(key, best);
  best.worker.off('exit', best.onExit).off('error', best.onExit);
  best.worker.ref();
  return best.worker;
}

/**
 * Keeps `worker` (stopped: no job; its priority lowered by `niceness`) for a later render of `key`; past one
 * render's worth of idle workers for the key it is terminated instead.
 */
export function keepWarm(key: string, worker: Worker, niceness: number, idleMs = WARM_IDLE_MS): void {
  const list = idle.get(key) ?? [];
  if (list.length >= availableParallelism()) {
    void worker.terminate().catch(() => undefined);
    return;
  }
  const entry: Idle = {
    worker,
    niceness,
    timer: setTimeout(() => {
      drop(key, entry);
      void worker.terminate().catch(() => undefined);
    }, idleMs),
    // A worker that dies while idle (out of memory, say) is simply forgotten; its error has no one to tell.
    onExit: () => drop(key, entry),
  };
  entry.timer.unref();
  worker.once('exit', entry.onExit).on('error', entry.onExit);
  worker.unref();
  list.push(entry);
  idle.set(key, list);
}

/**
 * Starts `count` workers now and keeps them for the next render (less those already kept for `key`): they
 * load their modules meanwhile, and a job sent to one still loading waits for them.
 */
export function prestartWorkers(workerUrl: URL, boot: WorkerBoot, count: number): void {
  const key = warmKey(workerUrl, boot.rendererModule);
  for (let i = idle.get(key)?.length ?? 0; i < count; i++)
    keepWarm(key, new Worker(workerUrl, { workerData: boot }), boot.niceness);
}

/** Takes `entry` off the idle list (its timer too). */
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
      e.worker.off('exit', e.onExit).off('error', e.onExit);
      return e.worker.terminate().catch(() => undefined);
    }),
  );
}
