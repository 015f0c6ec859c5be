/**
 * A render worker thread: loads the renderer once, then takes one render's job at a time (`job` ... `stop`; a
 * worker kept between renders takes the next: warm-workers.ts). For a job it owns one FrameRenderer (its own
 * Skia surface), renders the contiguous frame batches the job hands it, encodes them and posts the bytes back
 * (transferred, not copied). It never touches the filesystem: stills arrive as bytes with the job's data,
 * image-sequence frames are asked of the main thread as they are drawn, and video decoders read descriptors the
 * main thread opened.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EngineError, type ErrorInfo } from '../../engine/core.js';
import type { FrameRenderer, FrameRendererOptions, RenderedFrame } from '../types.js';
import type { FramePayload } from '../payload.js';
import { encodeFrame, oneEncoderThread } from '../encode.js';
import { frameToI420, i420Size, type YuvMatrix } from '../yuv/i420.js';
import { videoColour } from './exporters/video-colour.js';
import { collectYoungGarbage } from '../young-gc.js';
import { DecoderChildren, GRACEFUL_STOP_MS } from '../media/children.js';
import { lowerThisThread } from '../../node-io/thread-priority.js';
import type {
  BatchRequest,
  BytesReply,
  JobRequest,
  ReturnRequest,
  StopRequest,
  WorkerBoot,
  WorkerInit,
  WorkerMessage,
} from './protocol.js';

type RendererModule = { createFrameRenderer(options: FrameRendererOptions): FrameRenderer };

oneEncoderThread();
/**
 * Decoded video frames a render worker keeps beyond those of the frame being drawn (which are always kept): one
 * 1080p frame. A render reads in order, so frames of frames before come back only in slow motion, and then
 * from the frame just drawn. Four frames here held 50 MB more at the peak of a 1080p footage render.
 */
const RENDER_FRAME_CACHE = 8 * 1024 * 1024;
const boot = workerData as WorkerBoot;
const port = parentPort!;
// Before any decoder starts: they take this thread's priority.
lowerThisThread(boot.niceness);
/** How far this thread's priority is lowered: a job may lower it further (warm-workers.ts), never raise it. */
let niceness = boot.niceness;
// Loaded once, for every job this worker takes (warm-workers.ts). A worker started ahead of a render has no job
// to report a failed load to yet: the job that comes reports it.
const rendererModule = import(boot.rendererModule) as Promise<RendererModule>;
rendererModule.catch(() => undefined);

/** Sequence frames asked of the main thread, by request id. */
class SequenceReads {
  next = 1;
  readonly pending = new Map<number, { resolve: (b: Buffer) => void; reject: (e: unknown) => void }>();
  ask(path: string): Promise<Buffer> {
    const id = this.next++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      post({ type: 'read', id, path });
    });
  }
  settle(reply: BytesReply): void {
    const p = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (!p) return;
    if (reply.bytes)
      p.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
    else {
      const e = reply.error!;
      p.reject(new EngineError(e.code, e.message, e.remediation));
    }
  }
}

/** One render's state in this worker: from its `job` message to its `stop`. */
interface Job {
  init: WorkerInit;
  renderer: FrameRenderer;
  children: DecoderChildren;
  reads: SequenceReads;
  /** Set by the pool's `stop`: no further frame starts. */
  stopping: boolean;
  /** The batches, one after another. */
  queue: Promise<void>;
}

function post(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

function toErrorInfo(err: unknown): ErrorInfo {
  const e = err as { code?: unknown; message?: unknown; remediation?: unknown };
  if (typeof e?.code === 'string' && typeof e.remediation === 'string' && typeof e.message === 'string')
    return { code: e.code as ErrorInfo['code'], message: e.message, remediation: e.remediation };
  return {
    code: 'render_failed',
    message: `Rendering failed: ${err instanceof Error ? err.message : String(err)}`,
    remediation: 'Check the composition (effects, footage) and render again.',
  };
}

/** A Buffer that owns its whole ArrayBuffer can be transferred; pooled slices are copied first. */
function transferable(buf: Buffer): Uint8Array {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) return buf;
  return new Uint8Array(buf);
}

/**
 * Raw frames go out in buffers the job hands back once written (`return`), so a render allocates a few 8 MB
 * buffers instead of one per frame: per-frame allocations kept both threads' garbage collectors busy (a third of
 * a 1080p video render's time) and memory high between collections. Skia's own pixel memory cannot be
 * transferred, so the frame is copied (or converted, for I420) into one of these.
 */
const spareFrames: ArrayBuffer[] = [];
const MAX_SPARE_FRAMES = 8;

function spareFrame(bytes: number): Uint8Array {
  const i = spareFrames.findIndex((b) => b.byteLength === bytes);
  return new Uint8Array(i >= 0 ? spareFrames.splice(i, 1)[0]! : new ArrayBuffer(bytes));
}

function rawFrame(rgba: Buffer): Uint8Array {
  const out = spareFrame(rgba.byteLength);
  out.set(rgba);
  return out;
}

/**
 * Where an I420 frame goes: a spare buffer, converted with the matrix the frame's size gets (the exporter tags
 * the file with the same: video-colour.ts).
 */
function i420Target(width: number, height: number): { buffer: Uint8Array; matrix: YuvMatrix } {
  return { buffer: spareFrame(i420Size(width, height).bytes), matrix: videoColour({ width, height }).matrix };
}

let job: Job | null = null;
/** The job being started: a stop that comes meanwhile waits for it, so no renderer is left behind. */
let starting: Promise<void> = Promise.resolve();

/** Makes the job's renderer: stills came with its data, sequence frames are asked of the main thread. */
async function startJob(init: WorkerInit): Promise<void> {
  if (init.niceness > niceness) {
    lowerThisThread(init.niceness - niceness);
    niceness = init.niceness;
  }
  const mod = await rendererModule;
  const footage = new Map(init.footage.map(([path, bytes]) => [path, Buffer.from(bytes)]));
  const mediaFiles = new Map(init.media.files);
  const reads = new SequenceReads();
  const children = new DecoderChildren((pid, alive) => post({ type: 'child', pid, alive }));
  const readFile = async (path: string) => footage.get(path) ?? reads.ask(path);
  const renderer = mod.createFrameRenderer({
    readFile,
    // Frames are read in order and held by the frame being drawn: a small cache serves layers sharing a clip.
    frameCacheBytes: RENDER_FRAME_CACHE,
    media: {
      ffmpeg: init.media.ffmpeg,
      ffprobe: init.media.ffprobe,
      checked: init.media.checked,
      readFile,
      async open(path) {
        const child = mediaFiles.get(path);
        if (!child) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
        return child;
      },
      onChild: children.onChild,
    },
  });
  job = { init, renderer, children, reads, stopping: false, queue: Promise.resolve() };
  post({ type: 'ready' });
}

/**
 * Ends the job: no further frame starts, the renderer is freed, the decoders end and are reaped, the batch that
 * was running settles. Then `stopped`, and the worker holds nothing of the render (its frame buffers included)
 * should it be kept for the next one.
 */
async function stopJob(): Promise<void> {
  await starting;
  const current = job;
  if (current) {
    current.stopping = true;
    current.renderer.dispose();
    await current.children.gone(GRACEFUL_STOP_MS);
    await current.queue;
    job = null;
  }
  spareFrames.length = 0;
  post({ type: 'stopped' });
}

port.on('message', (req: JobRequest | BatchRequest | BytesReply | ReturnRequest | StopRequest) => {
  if (req.type === 'job') {
    starting = startJob(req.init).catch((err: unknown) => {
      post({ type: 'error', batch: -1, error: toErrorInfo(err) });
    });
    return;
  }
  if (req.type === 'stop') return void stopJob();
  if (req.type === 'return') {
    for (const b of req.buffers) if (spareFrames.length < MAX_SPARE_FRAMES) spareFrames.push(b);
    return;
  }
  const current = job;
  if (!current) return;
  if (req.type === 'bytes') return current.reads.settle(req);
  current.queue = current.queue.then(() => runBatch(current, req));
});

/** The rendered frame in the form the exporter asked for, in a buffer that can be transferred. */
async function framePayload(
  out: RenderedFrame,
  payload: Exclude<FramePayload, { kind: 'i420' }>,
): Promise<Uint8Array> {
  const encoded = await encodeFrame(out.rgba, out.width, out.height, out.premultiplied, payload);
  return payload.kind === 'rgba' ? rawFrame(encoded) : transferable(encoded);
}

/**
 * One frame of the batch, as its payload. I420 frames are opaque (flattened): a footage plate at the bottom is
 * composed in YUV (plate.ts), anything else rendered and converted here.
 */
async function renderOne(
  { renderer, init }: Job,
  req: BatchRequest,
  frame: number,
): Promise<{ width: number; height: number; data: Uint8Array }> {
  const time = frame / req.frameRate;
  const options = { scale: req.scale, transparent: req.transparent, missingFootage: 'fail' } as const;
  const payload = req.payload;
  if (payload.kind === 'i420') {
    let data: Uint8Array | null = null;
    const target = (w: number, h: number) => {
      const t = i420Target(w, h);
      data = t.buffer;
      return t;
    };
    const out = renderer.renderFrameI420
      ? await renderer.renderFrameI420(init.doc, req.compId, time, options, target)
      : // A renderer module without the I420 entry point (a test double, say) is converted here.
        frameToI420(await renderer.renderFrame(init.doc, req.compId, time, options), target);
    return { width: out.width, height: out.height, data: data! };
  }
  const out = await renderer.renderFrame(init.doc, req.compId, time, options);
  return { width: out.width, height: out.height, data: await framePayload(out, payload) };
}

async function runBatch(current: Job, req: BatchRequest): Promise<void> {
  try {
    for (const frame of req.frames) {
      if (current.stopping) return;
      const { width, height, data } = await renderOne(current, req, frame);
      post({ type: 'frame', batch: req.batch, frame, width, height, data }, [data.buffer as ArrayBuffer]);
      // The frame's native pixel buffers are garbage now: freed at once rather than frames later.
      collectYoungGarbage();
      // Native pixel buffers are released only when the event loop turns: yield between frames.
      await new Promise((resolve) => setImmediate(resolve));
    }
    post({ type: 'done', batch: req.batch });
  } catch (err) {
    post({ type: 'error', batch: req.batch, error: toErrorInfo(err) });
  }
}
