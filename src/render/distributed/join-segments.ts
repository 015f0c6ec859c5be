/**
 * Joins an item's video segments, in frame order, into its output with ffmpeg's concat demuxer and no
 * re-encoding (`-c copy`): every segment was encoded with the item's settings and starts on a key frame, so
 * the packets follow one another as they are. The output is written through the FileTracker (temporary +
 * rename, removed on failure), and the segments are deleted once it is in place.
 *
 * Timestamps: left to itself the concat demuxer starts each segment where the one before ended by its
 * container's duration, which MP4 and MOV round to the millisecond (mvhd): at 30 fps every seam slipped by
 * 5/15360 s, and the slips add up over a long render (and against the sound, mixed whole). So the list gives
 * each segment's exact duration from its frames and the frame rate. WebM stores milliseconds: a segment
 * encoded from 0 rounds its frames' times from its own start (667 + 67 = 734 ms where a local render has
 * round(22000 / 30) = 733), so the packets of a joined WebM are retimed to the local render's rounding
 * (VP9 in WebM: one packet per frame, in presentation order; the alt-ref frames libvpx adds travel inside
 * the next frame's packet).
 */
import { stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  EngineError,
  isEngineError,
  type EnginePorts,
  type Project,
  type RenderQueueItem,
} from '../../engine/index.js';
import { isMuxedAudio, muxedAudioArgs } from '../queue/exporters/audio-formats.js';
import { sha256File } from '../hash.js';
import { FfmpegProcess, findFfmpeg, missingFfmpeg, untilStopped } from '../queue/exporters/ffmpeg.js';
import { stopped } from '../queue/item-errors.js';
import type { OutputFile } from '../queue/exporters/types.js';
import type { FileTracker } from '../queue/tracker.js';
import { mixItemSound } from './item-sound.js';
import type { AssembleData, ChunkResult } from './protocol.js';
import { exactRate, ffmpegRate } from '../queue/exporters/frame-rate.js';
import { MOVIE_TIMESCALE } from '../queue/exporters/movie-timescale.js';

/** The sound codec a local render of `item` muxes (audio-formats.ts): the same, so the output matches. */
function soundCodec(item: RenderQueueItem): string[] {
  return isMuxedAudio(item.format) ? muxedAudioArgs(item.format, item.encoding) : [];
}

/** A concat list line: single quotes in a path are closed, escaped and reopened (ffmpeg's quoting). */
// As `file:` URLs: the list is read from a pipe, and a bare path would be taken relative to "pipe:".
const listLine = (path: string) => `file 'file:${path.replace(/'/g, "'\\''")}'`;

/**
 * The concat list: each segment with its exact duration, in whole microseconds (the demuxer's unit), taken as
 * the difference of its rounded start and end times so that the rounding never accumulates across seams.
 */
export function concatList(chunks: readonly ChunkResult[], frameRate: number): string {
  const first = chunks[0]?.start ?? 0;
  // The segments' own timestamps follow the rate their encoder was told (29.97 is 30000/1001).
  const rate = exactRate(frameRate);
  const micros = (frame: number) => Math.round(((frame - first) * 1e6) / rate);
  return chunks
    .flatMap((c) => {
      const path = c.files[0]?.path;
      if (path === undefined) return [];
      const duration = micros(c.start + c.frames) - micros(c.start);
      return [listLine(path), `duration ${(duration / 1e6).toFixed(6)}`];
    })
    .map((line) => `${line}\n`)
    .join('');
}

/** The output container, and for WebM the packets retimed to frame N's time as a local render rounds it. */
function containerArgs(format: string, frameRate: number): string[] {
  if (format === 'mp4') return [...MOVIE_TIMESCALE, '-movflags', '+faststart', '-f', 'mp4'];
  if (format === 'webm') {
    // Whole numbers until the one division, as ffmpeg's own rescaling: N/((30000/1001)*TB) came to
    // 500.49999999999994 for frame 15 at 29.97 fps, so 500 ms where a local render rounds the exact 500.5 to 501.
    // 1/TB is exactly 1000 (WebM's milliseconds), so the quotient is correctly rounded and a tie stays a tie.
    const [num, den = '1'] = ffmpegRate(frameRate).split('/');
    return ['-bsf:v', `setts=ts=round(N*${den}*(1/TB)/${num})`, '-f', 'webm'];
  }
  return [...MOVIE_TIMESCALE, '-f', 'mov'];
}

/**
 * Joins the segments of `chunks` (in frame order, one segment each) into the item's output; with
 * `data.soundDoc` (the output carries sound: the render's document) the sound is mixed once here and muxed while joining.
 * `options.signal` aborting kills the ffmpeg at work and fails with `cancelled`; the caller removes the
 * tracker's files (the segments stay, for another worker to join).
 */
export async function joinSegments(
  tracker: FileTracker,
  data: Pick<AssembleData, 'item' | 'frameRate'> & { soundDoc: Project | null },
  chunks: readonly ChunkResult[],
  options: { findFfmpeg?: () => Promise<string | null>; ports: EnginePorts; signal: AbortSignal },
): Promise<OutputFile[]> {
  const { item, frameRate, soundDoc } = data;
  const { signal } = options;
  const segments = chunks.flatMap((c) => c.files);
  const ffmpeg = await (options.findFfmpeg ?? findFfmpeg)();
  if (!ffmpeg) throw missingFfmpeg(item.format);
  await tracker.ensureDir(dirname(item.output));
  const mix = soundDoc ? await mixItemSound(tracker, soundDoc, item, options.ports, ffmpeg, signal) : null;
  const codecs = mix
    ? ['-i', mix.childPath, '-map', '0:v', '-map', '1:a', '-c:v', 'copy', ...soundCodec(item)]
    : ['-c', 'copy'];
  const file = await tracker.create(item.output);
  const container = containerArgs(item.format, frameRate);
  // The list goes to ffmpeg's stdin, not to a file: a temporary folder for it was left in /tmp by a worker
  // killed while joining, where the next worker to assemble could not see it.
  const joining = new FfmpegProcess(
    ffmpeg,
    [
      '-f',
      'concat',
      '-safe',
      '0',
      '-protocol_whitelist',
      'pipe,file',
      '-i',
      'pipe:0',
      ...codecs,
      ...container,
      '-y',
      file.childPath,
    ],
    { output: item.output },
  );
  await joining.write(Buffer.from(concatList(chunks, frameRate), 'utf8')).catch(() => undefined);
  await untilStopped({ finished: () => joining.end(), kill: () => joining.kill() }, signal, stopped).catch(
    (err: unknown) => {
      // A full disk (io_error) and a stop (cancelled) say so themselves.
      if (!isEngineError(err) || err.code !== 'render_failed') throw err;
      throw new EngineError(
        'render_failed',
        `ffmpeg could not join the segments of "${item.output}": ${err.message}`,
        'Render again; if it keeps failing, render this item without --redis.',
      );
    },
  );
  await tracker.commit(file);
  if (mix) await tracker.discard(mix);
  const { size } = await stat(file.readPath);
  const joined = { path: file.finalPath, bytes: size, sha256: await sha256File(file.readPath) };
  await Promise.all(segments.map((s) => unlink(s.path).catch(() => undefined)));
  return [joined];
}
