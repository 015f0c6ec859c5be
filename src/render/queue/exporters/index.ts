/**
 * The built-in exporters, one per output format, derived from the format table: sharp-encoded formats are
 * image sequences with the table's settings, ffmpeg-encoded ones single files (ffmpeg-formats.ts), audio-only
 * ones the composition's mix alone (audio.ts).
 */
import {
  formatSpec,
  OUTPUT_FORMATS,
  type AudioOnlyFormat,
  type Encoding,
  type StillEncoding,
  type FfmpegFormat,
  type OutputFormat,
} from '../../../engine/index.js';
import { AudioExporter } from './audio.js';
import { SequenceExporter } from './sequence.js';
import type { ExporterFactory, ExporterRegistry } from './types.js';
import { VideoExporter } from './video.js';

/** A sequence's still settings with the item's JPEG/WebP quality, when it sets one (PNG has none). */
function withQuality(encoding: StillEncoding, item: Encoding | undefined): StillEncoding {
  return item?.quality === undefined || encoding.kind === 'png'
    ? encoding
    : { ...encoding, quality: item.quality };
}

function builtinExporter(format: OutputFormat): ExporterFactory {
  const encoder = formatSpec(format).encoder;
  // The encoder kind is what makes a format an AudioOnlyFormat or an FfmpegFormat.
  if (encoder === 'ffmpeg-audio') return (ctx) => new AudioExporter(ctx, format as AudioOnlyFormat);
  if (encoder !== 'ffmpeg')
    return (ctx) => new SequenceExporter(ctx, withQuality(encoder, ctx.item.encoding));
  return (ctx) => new VideoExporter(ctx, format as FfmpegFormat);
}

export function builtinExporters(): ExporterRegistry {
  return new Map(OUTPUT_FORMATS.map((f) => [f, builtinExporter(f)]));
}

export type { Exporter, ExporterContext, ExporterFactory, ExporterRegistry, OutputFile } from './types.js';
export { AudioExporter } from './audio.js';
export { SequenceExporter } from './sequence.js';
export { VideoExporter } from './video.js';
