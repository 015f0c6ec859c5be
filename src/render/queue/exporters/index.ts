/**
 * The built-in exporters, one per output format, derived from the format table: sharp-encoded formats are
 * image sequences with the table's settings, ffmpeg-encoded ones single files (ffmpeg-formats.ts).
 */
import { formatSpec, OUTPUT_FORMATS, type FfmpegFormat, type OutputFormat } from '../../../engine/index.js';
import { SequenceExporter } from './sequence.js';
import type { ExporterFactory, ExporterRegistry } from './types.js';
import { VideoExporter } from './video.js';

function builtinExporter(format: OutputFormat): ExporterFactory {
  const encoder = formatSpec(format).encoder;
  if (encoder !== 'ffmpeg') return (ctx) => new SequenceExporter(ctx, encoder);
  // An `ffmpeg` encoder is what makes a format an FfmpegFormat.
  return (ctx) => new VideoExporter(ctx, format as FfmpegFormat);
}

export function builtinExporters(): ExporterRegistry {
  return new Map(OUTPUT_FORMATS.map((f) => [f, builtinExporter(f)]));
}

export type { Exporter, ExporterContext, ExporterFactory, ExporterRegistry, OutputFile } from './types.js';
export { SequenceExporter } from './sequence.js';
export { VideoExporter } from './video.js';
