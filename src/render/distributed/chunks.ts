/**
 * How an item is split into chunks: by frame index, never by time. Image sequences split into ranges of
 * `chunkSize` frames (each frame has its own final file name, so chunks cannot collide). MP4 (H.264, H.265),
 * MOV (ProRes) and WebM (VP9) split into silent segments, each a separate encode with the item's encoder
 * settings (so a key frame at its start), joined at assembly by ffmpeg's concat demuxer without re-encoding,
 * the sound mixed once for the whole item and muxed then. Everything else renders whole on one worker: GIF
 * and animated WebP cannot be joined without re-encoding.
 */
import { basename, dirname, join } from 'node:path';
import { formatSpec, type OutputFormatId } from '../../engine/output-formats.js';
import type { FrameSpan } from '../queue/plan.js';

/** Frames per chunk when --chunk-size is not given: a few seconds of 30 fps, enough to amortise a worker's start. */
export const DEFAULT_CHUNK_SIZE = 100;

/** How an item's chunks become its output. */
export type Split = 'frames' | 'segments' | 'whole';

/** Formats whose separately encoded segments the concat demuxer joins without re-encoding. */
const JOINABLE: readonly OutputFormatId[] = ['mp4', 'mov', 'webm'];

/** How an item of `format` splits. */
export function splitOf(format: OutputFormatId): Split {
  const encoder = formatSpec(format).encoder;
  if (encoder !== 'ffmpeg' && encoder !== 'ffmpeg-audio') return 'frames';
  return JOINABLE.includes(format) ? 'segments' : 'whole';
}

/** The chunks of `span` (inclusive), in frame order; one chunk when the item renders whole. */
export function chunkSpans(span: FrameSpan, chunkSize: number, split: Split): FrameSpan[] {
  if (split === 'whole') return [span];
  const spans: FrameSpan[] = [];
  for (let start = span.start; start <= span.end; start += chunkSize)
    spans.push({ start, end: Math.min(span.end, start + chunkSize - 1) });
  return spans;
}

/**
 * Where a video chunk writes its segment: a hidden file beside the output, named by the render and the range,
 * so a chunk delivered twice writes the same segment and two renders never share one.
 */
export function segmentPath(output: string, renderId: string, span: FrameSpan): string {
  const name = basename(output);
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.')) : '';
  return join(dirname(output), `.${name}.${renderId.slice(0, 8)}.${span.start}-${span.end}.seg${ext}`);
}
