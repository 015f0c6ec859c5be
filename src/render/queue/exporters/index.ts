/** The built-in exporters, keyed by output format. */
import { SequenceExporter } from './sequence.js';
import type { ExporterFactory, ExporterRegistry } from './types.js';
import { VideoExporter } from './video.js';

export function builtinExporters(): ExporterRegistry {
  const entries: Array<[string, ExporterFactory]> = [
    ['png', (ctx) => new SequenceExporter(ctx, { kind: 'png', level: 6 })],
    ['png-fast', (ctx) => new SequenceExporter(ctx, { kind: 'png', level: 1 })],
    ['jpeg', (ctx) => new SequenceExporter(ctx, { kind: 'jpeg', quality: 90 })],
    ['webp', (ctx) => new SequenceExporter(ctx, { kind: 'webp', quality: 90 })],
    ['mp4', (ctx) => new VideoExporter(ctx, 'mp4')],
    ['webm', (ctx) => new VideoExporter(ctx, 'webm')],
    ['mov', (ctx) => new VideoExporter(ctx, 'mov')],
    ['gif', (ctx) => new VideoExporter(ctx, 'gif')],
    ['webp-anim', (ctx) => new VideoExporter(ctx, 'webp-anim')],
  ];
  return new Map(entries);
}

export type { Exporter, ExporterContext, ExporterFactory, ExporterRegistry, OutputFile } from './types.js';
export { SequenceExporter } from './sequence.js';
export { VideoExporter } from './video.js';
