/**
 * The viewer's frames: GET /studio/frame?comp=ID&frame=N&scale=S[&transparent=1] renders one frame of the live
 * document with the session's renderer (the same Skia compositor, the same pixels as final renders, drawn in
 * the preview worker off the main thread) and answers raw straight-alpha RGBA. Raw, because on the studio's
 * own connection encoding would cost more than sending: the page caches the bitmaps for playback. Scrubbing
 * is previewing: a video frame that needs a seek may come from the scrub cache (a few levels off, as JPEG).
 */
import type { ServerResponse } from 'node:http';
import { EngineError, frameCount, type Engine } from '../../engine/index.js';
import { findComp } from '../../engine/resolve.js';
import { straightRgba } from '../../render/encode.js';
import type { FrameRenderer } from '../../render/types.js';
import { FrameHeaders } from '../protocol.js';
import { sendError } from './errors.js';

/** Largest side of a viewer frame: 200 % of the largest composition the engine allows would be too much. */
export const MAX_VIEWER_SIDE = 8192;

export interface FrameRequest {
  comp: string;
  frame: number;
  scale: number;
  transparent: boolean;
}

/** Reads and checks the query; throws EngineError('bad_argument') naming the parameter. */
export function parseFrameQuery(query: URLSearchParams): FrameRequest {
  const comp = query.get('comp');
  if (!comp) throw badQuery('comp', 'a composition id');
  const frame = Number(query.get('frame') ?? '0');
  if (!Number.isInteger(frame) || frame < 0) throw badQuery('frame', 'a frame number from 0');
  const scale = Number(query.get('scale') ?? '1');
  if (!Number.isFinite(scale) || scale <= 0 || scale > 4)
    throw badQuery('scale', 'a number above 0, at most 4');
  return { comp, frame, scale, transparent: query.get('transparent') === '1' };
}

/** Renders the frame asked for and writes the answer (pixels, or a JSON error). */
export async function serveFrame(
  res: ServerResponse,
  query: URLSearchParams,
  engine: Engine,
  renderer: () => Promise<FrameRenderer>,
  signal: AbortSignal,
): Promise<void> {
  try {
    const want = parseFrameQuery(query);
    // One snapshot: the document and its revision are read together, before the frame is drawn.
    const doc = engine.document;
    const revision = engine.revision;
    const comp = findComp(doc, want.comp);
    const frames = frameCount(comp);
    if (want.frame >= frames) throw badQuery('frame', `a frame number from 0 to ${frames - 1}`);
    const side = Math.max(comp.width, comp.height) * want.scale;
    if (side > MAX_VIEWER_SIDE)
      throw badQuery('scale', `at most ${MAX_VIEWER_SIDE / Math.max(comp.width, comp.height)} here`);
    const started = performance.now();
    const rendered = await (
      await renderer()
    ).renderFrame(doc, comp.id, want.frame / comp.frameRate, {
      scale: want.scale,
      transparent: want.transparent,
      missingFootage: 'placeholder',
      scrubCache: true,
      signal,
    });
    const body = straightRgba(rendered);
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-store',
      [FrameHeaders.width]: rendered.width,
      [FrameHeaders.height]: rendered.height,
      [FrameHeaders.revision]: revision,
      [FrameHeaders.renderMs]: (performance.now() - started).toFixed(1),
      [FrameHeaders.warnings]: encodeURIComponent(JSON.stringify(rendered.warnings)),
    });
    res.end(body);
  } catch (err) {
    sendError(res, err, 'The frame could not be drawn');
  }
}

function badQuery(name: string, wanted: string): EngineError {
  return new EngineError(
    'bad_argument',
    `The frame request's "${name}" must be ${wanted}.`,
    `Ask again with a valid ${name}.`,
  );
}
