/**
 * The preview worker thread: one per session, with its own FrameRenderer (Skia surfaces, fonts, footage
 * cache), so a frame that takes long never holds the main thread, where the MCP server answers pings and
 * cancellations. It never touches the filesystem: footage bytes are asked of the main thread, which reads
 * them through the session's (confined) ports.
 */
import { parentPort } from 'node:worker_threads';
import { EngineError, isEngineError, type Project } from '../../engine/index.js';
import { createFrameRenderer } from '../renderer.js';
import type { FootageReply, FromWorker, ReadFailure, RenderRequest, ToWorker } from './protocol.js';

const port = parentPort!;
const reads = new Map<number, { resolve: (bytes: Buffer) => void; reject: (err: Error) => void }>();
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

const renderer = createFrameRenderer({
  readFile: (path) =>
    new Promise<Buffer>((resolve, reject) => {
      const id = nextRead++;
      reads.set(id, { resolve, reject });
      post({ type: 'read', id, path });
    }),
});

function onFootage(reply: FootageReply): void {
  const pending = reads.get(reply.id);
  reads.delete(reply.id);
  if (!pending) return;
  if (reply.bytes)
    pending.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
  else pending.reject(readFailure(reply.failure ?? { errno: undefined, message: 'no bytes' }));
}

async function render(req: RenderRequest): Promise<void> {
  if (req.doc) doc = req.doc;
  try {
    if (!doc) throw new Error('no document was sent with the first frame');
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
  else void render(m);
});
post({ type: 'ready' });
