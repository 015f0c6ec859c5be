/**
 * The worker threads of one render: each holds its own FrameRenderer and renders one contiguous batch at a
 * time. A crashed worker fails the batch it held with `render_failed`. `destroy()` terminates all of them (a
 * stopped or failed render); `release()`, after a render that went well, keeps those that stop cleanly for the
 * next render (warm-workers.ts), which then starts without waiting for threads and Skia to load.
 */
import { Worker } from 'node:worker_threads';
import { EngineError, type ErrorInfo } from '../../engine/index.js';
import { askToStop, killChild } from '../media/children.js';
import type {
  BatchRequest,
  BytesReply,
  JobRequest,
  ReturnRequest,
  WorkerBoot,
  WorkerInit,
  WorkerMessage,
} from './protocol.js';
import { keepWarm, takeWarm, warmKey } from './warm-workers.js';

/** `release` hands the frame's buffer back to the worker that rendered it, once the frame is written. */
export type FrameSink = (
  frame: number,
  data: Uint8Array,
  width: number,
  height: number,
  release: () => void,
) => void;

interface Slot {
  worker: Worker;
  /** The pool's listeners on the worker, taken off when it is kept for another render. */
  listeners: Array<[event: 'message' | 'error' | 'exit', listener: Parameters<Worker['off']>[1]]>;
  /** Settles when the worker answers `stop` (its decoders ended and reaped). */
  stopped?: () => void;
  onMessage?: (m: WorkerMessage) => void;
  onExit?: (reason: string) => void;
}

export interface PoolOptions {
  workers: number;
  workerUrl: URL;
  init: WorkerInit;
  /** Answers a worker's `read` of an image-sequence frame (through the engine's ports). */
  readSequenceFrame?: (path: string) => Promise<Uint8Array>;
}

let nextBatch = 1;

export class RenderPool {
  readonly #slots: Slot[];
  readonly #idle: Slot[];
  #destroyed = false;
  /** Decoder children (ffmpeg) the workers reported alive: killed when the pool is destroyed. */
  readonly #children: Set<number>;
  /** Which kept workers these can stand in for (warm-workers.ts). */
  readonly #key: string;
  /** The job's priority, which every worker runs at once it has the job (worker.ts). */
  readonly #niceness: number;
  #terminated: Promise<void> | undefined;

  private constructor(slots: Slot[], children: Set<number>, key: string, niceness: number) {
    this.#children = children;
    this.#key = key;
    this.#niceness = niceness;
    this.#slots = slots;
    this.#idle = [...slots];
  }

  get size(): number {
    return this.#slots.length;
  }

  /**
   * Takes kept workers or starts new ones, hands each the render's job, and waits until each has made its
   * renderer (or one fails).
   */
  static async start(options: PoolOptions): Promise<RenderPool> {
    const slots: Slot[] = [];
    const ready: Promise<void>[] = [];
    const children = new Set<number>();
    const boot: WorkerBoot = { rendererModule: options.init.rendererModule, niceness: options.init.niceness };
    const key = warmKey(options.workerUrl, boot.rendererModule);
    for (let i = 0; i < options.workers; i++) {
      const worker = takeWarm(key, boot.niceness) ?? new Worker(options.workerUrl, { workerData: boot });
      const slot: Slot = { worker, listeners: [] };
      slots.push(slot);
      ready.push(
        new Promise<void>((resolve, reject) => {
          slot.onMessage = (m) =>
            m.type === 'ready'
              ? resolve()
              : m.type === 'error' &&
                reject(new EngineError(m.error.code, m.error.message, m.error.remediation));
          slot.onExit = (reason) => reject(workerDied(reason));
        }),
      );
      const onMessage = (m: WorkerMessage) => {
        if (m.type === 'stopped') return slot.stopped?.();
        if (m.type === 'read') return void answerRead(worker, m, options.readSequenceFrame);
        if (m.type !== 'child') return slot.onMessage?.(m);
        if (m.alive) children.add(m.pid);
        else children.delete(m.pid);
      };
      const onError = (err: Error) => slot.onExit?.(err.message);
      const onExit = (code: number) => slot.onExit?.(`it exited with code ${code}`);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      slot.listeners = [
        ['message', onMessage],
        ['error', onError],
        ['exit', onExit],
      ];
      worker.postMessage({ type: 'job', init: options.init } satisfies JobRequest);
    }
    const pool = new RenderPool(slots, children, key, boot.niceness);
    try {
      await Promise.all(ready);
    } catch (err) {
      await pool.destroy();
      throw err;
    }
    return pool;
  }

  /**
   * Renders one batch on an idle worker; `sink` receives each frame as it arrives (in frame order within the
   * batch). Resolves when the worker reports the batch done.
   */
  async run(req: Omit<BatchRequest, 'type' | 'batch'>, sink: FrameSink): Promise<void> {
    const slot = this.#idle.pop();
    if (!slot || this.#destroyed)
      throw new EngineError('cancelled', 'The render was stopped.', 'Render again.');
    const batch = nextBatch++;
    try {
      await new Promise<void>((resolve, reject) => {
        slot.onMessage = (m) => {
          // Messages a terminating worker had already posted must not start writes after cleanup began.
          if (this.#destroyed) return;
          if (m.type === 'frame' && m.batch === batch)
            sink(m.frame, m.data, m.width, m.height, () => this.#giveBack(slot, m.data));
          else if (m.type === 'done' && m.batch === batch) resolve();
          else if (m.type === 'error')
            reject(new EngineError(m.error.code, m.error.message, m.error.remediation));
        };
        slot.onExit = (reason) =>
          reject(
            this.#destroyed
              ? new EngineError('cancelled', 'The render was stopped.', 'Render again.')
              : workerDied(reason),
          );
        slot.worker.postMessage({ type: 'batch', batch, ...req } satisfies BatchRequest);
      });
    } finally {
      slot.onMessage = undefined;
      slot.onExit = undefined;
    }
    this.#idle.push(slot);
  }

  /** Transfers a written frame's buffer back to its worker (nothing once the pool is stopping). */
  #giveBack(slot: Slot, data: Uint8Array): void {
    if (this.#destroyed || data.byteOffset !== 0 || data.byteLength !== data.buffer.byteLength) return;
    const buffer = data.buffer as ArrayBuffer;
    slot.worker.postMessage({ type: 'return', buffers: [buffer] } satisfies ReturnRequest, [buffer]);
  }

  /**
   * After a render that went well: each worker ends its job (its renderer freed, its decoders reaped) and is kept
   * for the next render; one that does not answer in time is terminated. Like `destroy`, it takes no more
   * batches; calling either afterwards waits for the same end.
   */
  release(): Promise<void> {
    return this.#end(true);
  }

  /** Terminates every worker; a batch still running rejects with `cancelled`. Safe to call twice. */
  destroy(): Promise<void> {
    return this.#end(false);
  }

  /**
   * Asks every worker to end its decoders (a terminated thread cannot reap them: they would stay zombies) and
   * waits for its answer a bounded time (a frame being drawn delays it); then keeps it (`keep`, when it
   * answered) or terminates it. Every caller waits for the same end, so cleanup never starts while a worker
   * still runs.
   */
  #end(keep: boolean): Promise<void> {
    this.#terminated ??= (async () => {
      this.#destroyed = true;
      await Promise.all(
        this.#slots.map(async (slot) => {
          let answered = false;
          await askToStop(slot.worker, (done) => {
            slot.stopped = () => {
              answered = true;
              done();
            };
          });
          if (keep && answered) {
            for (const [event, listener] of slot.listeners) slot.worker.off(event, listener);
            keepWarm(this.#key, slot.worker, this.#niceness);
          } else await slot.worker.terminate().catch(() => undefined);
        }),
      );
      // Ended and reaped by their workers when they answered; any left (a terminated worker's) end here.
      for (const pid of this.#children) killChild(pid);
      this.#children.clear();
    })();
    return this.#terminated;
  }
}

/** Reads what a worker asked for and posts the bytes (transferred) or the error back to it. */
async function answerRead(
  worker: Worker,
  m: { id: number; path: string },
  read: PoolOptions['readSequenceFrame'],
): Promise<void> {
  let reply: BytesReply;
  try {
    if (!read)
      throw new EngineError('not_configured', 'This render reads no sequence frames.', 'Render again.');
    const bytes = await read(m.path);
    // A Buffer from a pool shares its ArrayBuffer: only a buffer of its own can be transferred.
    const own =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
    reply = { type: 'bytes', id: m.id, bytes: own };
  } catch (err) {
    reply = { type: 'bytes', id: m.id, error: errorInfo(err) };
  }
  // A worker that was terminated meanwhile takes no more messages.
  try {
    worker.postMessage(reply, reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : []);
  } catch {
    /* terminated */
  }
}

function errorInfo(err: unknown): ErrorInfo {
  if (err instanceof EngineError) return err.toInfo();
  return {
    code: 'io_error',
    message: `Reading footage failed: ${err instanceof Error ? err.message : String(err)}`,
    remediation: 'Check the file and render again.',
  };
}

function workerDied(reason: string): EngineError {
  return new EngineError(
    'render_failed',
    `A render worker stopped unexpectedly (${reason}).`,
    'Render again; if it keeps failing, simplify the composition or lower "scale".',
  );
}
