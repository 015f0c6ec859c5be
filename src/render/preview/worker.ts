/**
 * The preview worker thread: one per session, with its own FrameRenderer (Skia surfaces, fonts, footage
 * cache), so a frame that takes long never holds the main thread, where the MCP server answers pings and
 * cancellations. It never touches the filesystem: footage bytes are asked of the main thread, which reads
 * them through the session's (confined) ports.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EngineError, isEngineError, type Project } from '../../engine/core.js';
import { createFrameRenderer } from '../renderer.js';
import { DecoderChildren, GRACEFUL_STOP_MS } from '../media/children.js';
import { collectYoungGarbage } from '../young-gc.js';
import type {
  FootageReply,
  FromWorker,
  OpenReply,
  PreviewWorkerData,
  ReadFailure,
  RenderRequest,
  ToWorker,
} from './protocol.js';

const port = parentPort!;
const reads = new Map<number, { resolve: (bytes: Buffer) => void; reject: (err: Error) => void }>();
const opens = new Map<number, { resolve: (childPath: string) => void; reject: (err: Error) => void }>();
const tools = (workerData as PreviewWorkerData | undefined) ?? { ffmpeg: null, ffprobe: null };
let nextRead = 1;
let doc: Project | undefined;

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

function readFailure(failure: ReadFailure): Error {
  if ('info' in failure)
    return new EngineError(failure.info.code, failure.info.message, failure.info.remediation);
  return Object.assign(new Error(failure.message), { code: failure.errno });
}

const children = new DecoderChildren((pid, alive) => post({ type: 'child', pid, alive }));

const readFile = (path: string) =>
  new Promise<Buffer>((resolve, reject) => {
    const id = nextRead++;
    reads.set(id, { resolve, reject });
    post({ type: 'read', id, path });
  });

/**
 * JPEG frames kept for previews' seeks (media/scrub-cache.ts): about a minute of 1080p video. Freed with the
 * worker, which stops after a minute without frames.
 */
const SCRUB_CACHE_BYTES = 256 * 1024 * 1024;

const renderer = createFrameRenderer({
  readFile,
  scrubCacheBytes: SCRUB_CACHE_BYTES,
  media: {
    ...tools,
    readFile,
    open: (path) =>
      new Promise<string>((resolve, reject) => {
        const id = nextRead++;
        opens.set(id, { resolve, reject });
        post({ type: 'open', id, path });
      }),
    onChild: children.onChild,
  },
});

function onOpened(reply: OpenReply): void {
  const pending = opens.get(reply.id);
  opens.delete(reply.id);
  if (!pending) return;
  if (reply.childPath) pending.resolve(reply.childPath);
  else pending.reject(readFailure(reply.failure ?? { errno: undefined, message: 'not opened' }));
}

function onFootage(reply: FootageReply): void {
  const pending = reads.get(reply.id);
  reads.delete(reply.id);
  if (!pending) return;
  if (reply.bytes)
    pending.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
  else pending.reject(readFailure(reply.failure ?? { errno: undefined, message: 'no bytes' }));
}

/**
 * A preview's native pixel buffers are garbage once it is sent (young-gc.ts), and are freed when the worker has
 * had no preview for IDLE_COLLECT_MS. Not after every preview: a minor collection forced after each one set off
 * a full one about as often (V8 started marking the old generation again and again), which the next preview then
 * waited on; previews of a filled scrub cache at 1080p took 65-73 ms with it and 38-44 ms without (medians of 15,
 * bench/footage.mjs's scrub), for ~50 MB more held while previews come back to back.
 */
const IDLE_COLLECT_MS = 250;
let idleCollect: ReturnType<typeof setTimeout> | undefined;

function collectWhenIdle(): void {
  clearTimeout(idleCollect);
  idleCollect = setTimeout(collectYoungGarbage, IDLE_COLLECT_MS);
  // The thread ends when told to, not held open by this.
  idleCollect.unref();
}

async function render(req: RenderRequest): Promise<void> {
  if (req.doc) doc = req.doc;
  try {
    await answer(req);
  } finally {
    collectWhenIdle();
  }
}

async function answer(req: RenderRequest): Promise<void> {
  try {
    if (!doc) throw new Error('no document was sent with the first frame');
    if (req.encode) {
      const still = await renderer.renderStill(doc, req.compId, req.time, req.options, req.encode);
      // An own copy (sharp's output cannot be transferred): the file, a fraction of the pixels.
      const bytes = new Uint8Array(still.bytes);
      const { width, height, warnings } = still;
      return post({ type: 'still', id: req.id, width, height, bytes, warnings }, [bytes.buffer]);
    }
    const frame = await renderer.renderFrame(doc, req.compId, req.time, req.options);
    // An own copy: Skia's pixel memory cannot be transferred, a plain ArrayBuffer can (no second copy).
    const rgba = new Uint8Array(frame.rgba);
    const { width, height, premultiplied, warnings } = frame;
    post({ type: 'frame', id: req.id, width, height, rgba, premultiplied, warnings }, [rgba.buffer]);
  } catch (err) {
    if (isEngineError(err)) post({ type: 'error', id: req.id, error: err.toInfo() });
    else {
      const message = err instanceof Error ? err.message : String(err);
      const stack = (err instanceof Error && err.stack) || message;
      const remediation = 'Report it with the server log (stderr).';
      post({ type: 'error', id: req.id, error: { code: 'tool_failed', message, remediation }, stack });
    }
  }
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'footage') onFootage(m);
  else if (m.type === 'opened') onOpened(m);
  else if (m.type === 'stop') {
    // Ends and reaps the decoders before the thread is terminated (a terminated thread leaves zombies).
    renderer.dispose();
    void children.gone(GRACEFUL_STOP_MS).then(() => post({ type: 'stopped' }));
  } else void render(m);
});
post({ type: 'ready' });
