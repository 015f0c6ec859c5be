/**
 * How an item is split into chunks: by frame index, never by time. Image sequences split into ranges of
 * `chunkSize` frames (each frame has its own final file name, so chunks cannot collide). Every other format is
 * rendered whole by one worker for now: joining video segments is not built yet, and GIF and animated WebP
 * cannot be joined without re-encoding.
 */
import { formatSpec, type OutputFormatId } from '../../engine/output-formats.js';
import type { FrameSpan } from '../queue/plan.js';

/** Frames per chunk when --chunk-size is not given: a few seconds of 30 fps, enough to amortise a worker's start. */
export const DEFAULT_CHUNK_SIZE = 100;

/** Whether `format` is written one file per frame (PNG, JPEG, WebP sequences). */
export function splitsByFrame(format: OutputFormatId): boolean {
  const encoder = formatSpec(format).encoder;
  return encoder !== 'ffmpeg' && encoder !== 'ffmpeg-audio';
}

/** The chunks of `span` (inclusive), in frame order; one chunk when the format does not split. */
export function chunkSpans(span: FrameSpan, chunkSize: number, splits: boolean): FrameSpan[] {
  if (!splits) return [span];
  const spans: FrameSpan[] = [];
  for (let start = span.start; start <= span.end; start += chunkSize)
    spans.push({ start, end: Math.min(span.end, start + chunkSize - 1) });
  return spans;
}
