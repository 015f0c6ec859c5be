/**
 * POSTs to `mcp --http`: the body is read once, as bytes, within the size limit, parsed as JSON once, and handed
 * to the SDK's handler as `parsedBody` (the Request it gets carries no body: both eras read parsedBody). The SDK's Node adapter would
 * decode an 11 MB put_sample_chunk body to text, re-serialise it, encode it again to count it, and its router
 * decode a clone once more: on 2 cores that was most of an upload call's cost. Upload bodies are parsed with
 * their bytes cut out (json-body.ts). Security: a declared Content-Length over the limit is refused before any byte is read, and an
 * undeclared (chunked) body as soon as the count passes it, so a remote caller cannot make the node buffer more.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { requestIdOf, type InFlightRequests } from './http-cancel.js';
import { parseJsonBody } from './json-body.js';
import { ChunkBuffers } from './remote/chunk-buffers.js';
import { releaseAll, withLargeValues, type SpliceTable } from './http-splice.js';
import { writeSpliced } from './splice-writer.js';

export type BodyRead =
  | { kind: 'json'; value: unknown; bytes: Map<string, Buffer> }
  | { kind: 'empty' }
  | { kind: 'invalid' }
  | { kind: 'too-large' };

/**
 * Buffers for the bodies of upload chunks (an 8 MiB chunk is about 11.2 MB of JSON), reused: a fresh one per
 * call is external memory that V8 answers with full collections (see chunk-buffers.ts). Nothing parsed from a
 * body points into it (json-body.ts copies or decodes every value), so it is given back right after parsing.
 */
const POOLED_BODY_MIN = 1024 * 1024;
const POOLED_BODY_MAX = 12 * 1024 * 1024;
const bodyBuffers = new ChunkBuffers(POOLED_BODY_MAX);

/** A buffer for a body of `declared` bytes, and the function that gives it back. */
function bodyBuffer(declared: number): { into: Buffer | null; release: () => void } {
  if (!Number.isSafeInteger(declared) || declared <= 0) return { into: null, release: () => undefined };
  if (declared < POOLED_BODY_MIN || declared > POOLED_BODY_MAX)
    return { into: Buffer.allocUnsafeSlow(declared), release: () => undefined };
  const { buffer, release } = bodyBuffers.take();
  return { into: buffer.subarray(0, declared), release };
}

export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.resolve({ kind: 'too-large' });
  // A declared length is filled in place as the bytes arrive (no join of an 11 MB upload at the end).
  const { into, release } = bodyBuffer(Number(req.headers['content-length']));
  // Events rather than for-await: leaving an async iteration early destroys the socket, and then the 413 could
  // not be sent. Paused instead, the rest stays unread and the connection is closed after the answer.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let filled = 0;
    const stop = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        stop();
        release();
        req.pause();
        resolve({ kind: 'too-large' });
        return;
      }
      if (into && !chunks.length && filled + chunk.length <= into.length) filled += chunk.copy(into, filled);
      else chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      if (received === 0) {
        release();
        return resolve({ kind: 'empty' });
      }
      const head = into ? [into.subarray(0, filled)] : [];
      // More than was declared cannot come (HTTP's parser frames the body by its length); joined if it did.
      const raw = chunks.length ? Buffer.concat([...head, ...chunks], received) : head[0]!;
      try {
        const bytes = new Map<string, Buffer>();
        resolve({ kind: 'json', value: parseJsonBody(raw, bytes), bytes });
      } catch {
        resolve({ kind: 'invalid' });
      } finally {
        release();
      }
    };
    const onError = (err: Error) => {
      stop();
      release();
      reject(err);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/**
 * Answers a POST whose body was read and parsed: the SDK's handler gets the request's headers and the parsed
 * value, and its Response (JSON, or an SSE stream) is written back with backpressure. A client that goes
 * away aborts the request, as the SDK's own adapter does.
 */
const BODY_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding']);

export async function servePost(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  body: { value: unknown; bytes: Map<string, Buffer> },
  inFlight?: InFlightRequests,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // The body was read already and goes as parsedBody, so the Request carries none (and no length for one).
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const abort = new AbortController();
  const id = requestIdOf(body.value);
  const untrack = id !== null && inFlight ? inFlight.track(id, abort) : () => undefined;
  res.on('close', () => {
    untrack();
    if (!res.writableFinished) abort.abort();
  });
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: 'POST',
    headers,
    signal: abort.signal,
  });
  const splices: SpliceTable = new Map();
  const response = await withLargeValues({ out: splices, in: body.bytes }, () =>
    handler.fetch(request, { parsedBody: body.value }),
  );
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => (out[name] = value));
  // Large strings go into the body on the way out (http-splice.ts), so a length given for it would be wrong. A
  // JSON answer is whole by now (its stand-ins are set); a stream (SSE) declares no length.
  if (splices.size) delete out['content-length'];
  res.writeHead(response.status, out);
  if (!response.body) {
    releaseAll(splices);
    res.end();
    return;
  }
  // A client that disconnects mid-stream ends the writing with an error: nothing more to send it.
  await writeSpliced(response.body as WebReadableStream<Uint8Array>, splices, res).catch(() => undefined);
}
