// The MP4 encoder as our exporter runs it, for baselines in the same script: its exact output arguments (read
// from the built dist, so a change to them changes the baseline too), and "the encoder's limit": ffmpeg encoding
// a file of raw RGBA frames alone, with nothing to render, which no RGBA compositor feeding it can beat.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

export async function mp4Encoder(dist) {
  const formats = await import(pathToFileURL(join(dist, 'render/queue/exporters/ffmpeg-formats.js')).href);
  const audio = await import(pathToFileURL(join(dist, 'render/queue/exporters/audio-formats.js')).href);
  return {
    /** Output arguments of an opaque MP4 of `width`x`height` (picture conversion, x264 settings, tags). */
    args: (width, height, frames) => formats.ffmpegOutputArgs('mp4', false, { width, height }, frames),
    /** The same for frames that arrive as I420 (what the exporter feeds it): the colour stamp, no conversion. */
    i420Args: (width, height, frames) =>
      formats.ffmpegOutputArgs('mp4', false, { width, height }, frames, {}, 'i420'),
    audioArgs: audio.MUXED_AUDIO_ARGS.mp4,
  };
}

/** The same arguments without the -vf conversion: for a filter graph that ends in yuv420p itself. */
export function withoutVf(args) {
  const i = args.indexOf('-vf');
  return i < 0 ? args : [...args.slice(0, i), ...args.slice(i + 2)];
}

/** Seconds ffmpeg takes to encode `frames` raw frames (RGBA, or `pixFmt`) of `raw` to MP4 with `args`. */
export function encoderLimitSeconds(raw, width, height, fps, frames, args, out, pixFmt = 'rgba') {
  const t = performance.now();
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'rawvideo', '-pix_fmt', pixFmt, '-s', `${width}x${height}`, '-r', String(fps), '-i', raw],
    ...args,
    out,
  ]);
  return (performance.now() - t) / 1000;
}
