/**
 * The main-thread side of a session's preview worker: a FrameRenderer whose frames are drawn in one warm
 * worker thread (started on the first frame, fed each new document snapshot, ended after a minute idle), so
 * the main thread keeps serving pings, edits and cancellations while a frame is drawn. Frames take turns;
 * cancelling one that waits removes it, cancelling the one being drawn terminates the worker (Skia cannot be
 * interrupted mid-frame), and the next frame starts a fresh one.
 */
import { Worker } from 'node:worker_threads';
import PQueue from 'p-queue';
import {
  EngineError,
  isEngineError,
  type MediaFile,
  type Project,
  type StillEncoding,
} from '../../engine/index.js';
import { workerEntryUrl } from '../../node-io/worker-url.js';
import { frameCancelled, throwIfCancelled } from '../cancel.js';
import type { EncodedFrame, FrameRenderer, RenderedFrame, RenderOptions } from '../types.js';
import { askToStop, killChild } from '../media/children.js';
import { FootageStamps } from './footage-stamps.js';
import type { FromWorker, PreviewWorkerData, ReadFailure, ToWorker } from './protocol.js';

export interface PreviewWorkerOptions {
  /** How footage bytes are read (the session's ports, so confinement applies). */
  readFile(path: string): Promise<Buffer>;
  /** How video files are opened for the worker's decoders (the session's ports); without it, video is missing. */
  openMedia?(path: string): Promise<MediaFile>;
  /** ffmpeg and ffprobe for the worker's decoders (found once, when the first worker starts). */
  findTools?(): Promise<PreviewWorkerData>;
  /** The worker module (default: the built preview/worker.js). */
  workerUrl?: URL;
  /** How long an idle worker is kept warm (default one minute). */
  idleMs?: number;
}

const DEFAULT_IDLE_MS = 60_000;

/** The frame being drawn: settled by the worker's answer (pixels or a still), its exit, or a cancellation. */
interface Pending {
  id: number;
  resolve(frame: RenderedFrame | EncodedFrame): void;
  reject(err: Error): void;
}

/** One worker thread and what it holds. */
interface Thread {
  worker: Worker;
  ready: Promise<void>;
  /** The document the worker holds (sent with the last frame). */
  doc: Project | undefined;
  pending: Pending | undefined;
  /** Called when the worker answers `stop`. */
  stopped?: () => void;
  /** Video files opened for this worker's decoders, by path; closed when the worker stops. */
  media: Map<string, Promise<MediaFile>>;
  /** The worker's decoder children still alive: ended when the worker stops (a terminated thread cannot). */
  children: Set<number>;
}

/** Video files one worker keeps open at most; past it the oldest is closed (its decoder has its own open). */
const MAX_OPEN_MEDIA = 64;

function workerDied(reason: string): EngineError {
  return new EngineError(
    'render_failed',
    `The preview worker stopped unexpectedly (${reason}).`,
    'Ask for the frame again; if it keeps failing, simplify the composition or lower max_side.',
  );
}

function readFailure(err: unknown): ReadFailure {
  if (isEngineError(err)) return { info: err.toInfo() };
  return { errno: (err as NodeJS.ErrnoException)?.code, message: String(err) };
}

/** `promise`, or `frameCancelled()` as soon as `signal` fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(frameCancelled());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

class PreviewWorker implements FrameRenderer {
  readonly #options: PreviewWorkerOptions;
  // One frame at a time: the worker has one renderer, and a queued frame can be cancelled before it starts.
  readonly #queue = new PQueue({ concurrency: 1 });
  #thread: Thread | undefined;
  #idle: NodeJS.Timeout | undefined;
  #tools: Promise<PreviewWorkerData> | undefined;
  #nextId = 1;
  readonly #footage = new FootageStamps();

  constructor(options: PreviewWorkerOptions) {
    this.#options = options;
  }

  renderFrame(doc: Project, compId: string, time: number, options: RenderOptions): Promise<RenderedFrame> {
    return this.#take(doc, compId, time, options, undefined) as Promise<RenderedFrame>;
  }

  readonly renderStill: FrameRenderer['renderStill'] = (doc, compId, time, options, encoding) =>
    this.#take(doc, compId, time, options, encoding) as Promise<EncodedFrame>;

  /** A frame's turn in the queue: pixels back, or with `encode` the encoded still. */
  async #take(
    doc: Project,
    compId: string,
    time: number,
    options: RenderOptions,
    encode: StillEncoding | undefined,
  ): Promise<RenderedFrame | EncodedFrame> {
    const { signal, ...wire } = options;
    throwIfCancelled(signal);
    // p-queue drops a frame cancelled while it waits. Once the frame runs, its cancellation is ours to handle
    // (and the queue must not start the next frame before the worker is free), so p-queue's signal is cut off.
    const waiting = new AbortController();
    const dropWaiting = () => waiting.abort();
    signal?.addEventListener('abort', dropWaiting, { once: true });
    try {
      return await this.#queue.add(
        () => {
          signal?.removeEventListener('abort', dropWaiting);
          return this.#draw(doc, compId, time, wire, encode, signal);
        },
        { signal: waiting.signal },
      );
    } catch (err) {
      // p-queue rejects with the signal's reason (an AbortError) when it is cancelled while waiting.
      if (signal?.aborted && !isEngineError(err)) throw frameCancelled();
      throw err;
    } finally {
      signal?.removeEventListener('abort', dropWaiting);
    }
  }

  dispose(): void {
    this.#queue.clear();
    void this.#stop();
  }

  /** dispose, for a process about to exit: resolves once the worker's decoders have ended and been reaped. */
  close(): Promise<void> {
    this.#queue.clear();
    return this.#stop();
  }

  async #draw(
    doc: Project,
    compId: string,
    time: number,
    options: Omit<RenderOptions, 'signal'>,
    encode: StillEncoding | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RenderedFrame | EncodedFrame> {
    clearTimeout(this.#idle);
    this.#tools ??= (this.#options.findTools?.() ?? Promise.resolve({ ffmpeg: null, ffprobe: null })).catch(
      () => ({ ffmpeg: null, ffprobe: null }),
    );
    const tools = await untilAborted(this.#tools, signal);
    // A footage file changed on disk since the worker last drew it: its decoded frames, scrub cache and open
    // descriptor are the old file's. A fresh worker holds none of them.
    if (await this.#footage.changed(doc, compId, time)) await this.#stop();
    const thread = this.#thread ?? this.#start(tools);
    thread.worker.ref();
    try {
      // Cancelled while the worker starts: it goes on starting, warm for the next frame.
      await untilAborted(thread.ready, signal);
      const id = this.#nextId++;
      const frame = new Promise<RenderedFrame | EncodedFrame>((resolve, reject) => {
        thread.pending = { id, resolve, reject };
      });
      const request: ToWorker = { type: 'render', id, compId, time, options, ...(encode && { encode }) };
      // Documents are immutable: the same reference is the same snapshot, already in the worker.
      if (thread.doc !== doc) request.doc = doc;
      thread.worker.postMessage(request);
      thread.doc = doc;
      // The frame may go on for minutes and Skia cannot be interrupted: a cancellation ends the thread.
      const stop = () => void this.#stop();
      signal?.addEventListener('abort', stop, { once: true });
      try {
        return await untilAborted(frame, signal);
      } finally {
        signal?.removeEventListener('abort', stop);
        thread.pending = undefined;
      }
    } finally {
      if (this.#thread === thread) {
        thread.worker.unref();
        this.#idle = setTimeout(() => void this.#stop(), this.#options.idleMs ?? DEFAULT_IDLE_MS).unref();
      }
    }
  }

  /** Starts the worker; it answers `ready` once Skia and the fonts are loaded. */
  #start(tools: PreviewWorkerData): Thread {
    const worker = new Worker(this.#options.workerUrl ?? workerEntryUrl('./worker.js', import.meta.url), {
      workerData: tools,
    });
    let ready!: { resolve(): void; reject(err: Error): void };
    const thread: Thread = {
      worker,
      ready: new Promise<void>((resolve, reject) => (ready = { resolve, reject })),
      doc: undefined,
      pending: undefined,
      media: new Map(),
      children: new Set(),
    };
    // Nobody may be waiting for `ready` when the worker fails; the failure is reported to the frame instead.
    thread.ready.catch(() => undefined);
    const fail = (err: Error) => {
      if (this.#thread === thread) this.#thread = undefined;
      ready.reject(err);
      thread.pending?.reject(err);
    };
    worker.on('message', (m: FromWorker) => this.#onMessage(thread, m, ready.resolve));
    worker.on('error', (err) => fail(workerDied(err.message)));
    worker.on('exit', (code) => fail(workerDied(`it exited with code ${code}`)));
    this.#thread = thread;
    return thread;
  }

  #onMessage(thread: Thread, m: FromWorker, ready: () => void): void {
    switch (m.type) {
      case 'ready':
        ready();
        return;
      case 'read':
        this.#options.readFile(m.path).then(
          (data) => {
            // An own copy (a read may return a slice of a shared pool), handed over without a second copy.
            const bytes = new Uint8Array(data);
            this.#reply(thread, { type: 'footage', id: m.id, bytes }, [bytes.buffer]);
          },
          (err: unknown) => this.#reply(thread, { type: 'footage', id: m.id, failure: readFailure(err) }),
        );
        return;
      case 'open':
        this.#open(thread, m.path).then(
          (file) => this.#reply(thread, { type: 'opened', id: m.id, childPath: file.childPath }),
          (err: unknown) => this.#reply(thread, { type: 'opened', id: m.id, failure: readFailure(err) }),
        );
        return;
      case 'stopped':
        thread.stopped?.();
        return;
      case 'child':
        if (m.alive) thread.children.add(m.pid);
        else thread.children.delete(m.pid);
        return;
      case 'frame': {
        const { width, height, rgba, premultiplied, warnings } = m;
        const pixels = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
        if (thread.pending?.id === m.id)
          thread.pending.resolve({ width, height, rgba: pixels, premultiplied, warnings });
        return;
      }
      case 'still': {
        const { width, height, bytes, warnings } = m;
        if (thread.pending?.id === m.id)
          thread.pending.resolve({
            width,
            height,
            bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
            warnings,
          });
        return;
      }
      case 'error':
        if (thread.pending?.id !== m.id) return;
        // A bug in the worker reaches the engine as an ordinary exception: tool_failed, its stack in the log.
        thread.pending.reject(
          m.stack !== undefined
            ? Object.assign(new Error(m.error.message), { stack: m.stack })
            : new EngineError(m.error.code, m.error.message, m.error.remediation),
        );
    }
  }

  /** Answers a footage read, unless the worker it was for has been stopped meanwhile. */
  #reply(thread: Thread, message: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (this.#thread === thread) thread.worker.postMessage(message, transfer);
  }

  /** Opens a video file for `thread`'s decoders once (through the session's ports, so confinement applies). */
  #open(thread: Thread, path: string): Promise<MediaFile> {
    const open = this.#options.openMedia;
    if (!open)
      return Promise.reject(
        new EngineError(
          'not_configured',
          'Video footage is not available here.',
          'Render through a session.',
        ),
      );
    let file = thread.media.get(path);
    if (!file) {
      file = open(path);
      // A failed open is not kept: the next frame tries again (the file may be back).
      file.catch(() => thread.media.delete(path));
      thread.media.set(path, file);
      if (thread.media.size > MAX_OPEN_MEDIA) {
        const [oldest, first] = thread.media.entries().next().value!;
        thread.media.delete(oldest);
        void first.then((f) => f.close()).catch(() => undefined);
      }
    }
    return file;
  }

  /** Terminates the worker (if any), ends its decoders and closes its files; the next frame starts a new one. */
  /** Stops the worker; resolves once it has ended (its decoders reaped, or killed when it could not). */
  #stop(): Promise<void> {
    clearTimeout(this.#idle);
    const thread = this.#thread;
    this.#thread = undefined;
    if (!thread) return Promise.resolve();
    // Decoders first (the worker reaps them), then the thread; a frame being drawn delays the answer, boundedly.
    const answered = askToStop(thread.worker, (done) => (thread.stopped = done));
    return answered
      .then(async () => void (await thread.worker.terminate()))
      .catch(() => undefined)
      .finally(() => {
        for (const pid of thread.children) killChild(pid);
        thread.children.clear();
        for (const file of thread.media.values()) void file.then((f) => f.close()).catch(() => undefined);
        thread.media.clear();
      });
  }
}

/** A FrameRenderer that draws in a worker thread of its own (see the module comment). */
export function createPreviewWorker(options: PreviewWorkerOptions): FrameRenderer {
  return new PreviewWorker(options);
}
