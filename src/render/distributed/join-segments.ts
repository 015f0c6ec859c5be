/**
 * Joins an item's video segments, in frame order, into its output with ffmpeg's concat demuxer and no
 * re-encoding (`-c copy`): every segment was encoded with the item's settings and starts on a key frame, so
 * the packets follow one another as they are. The output is written through the FileTracker (temporary +
 * rename, removed on failure), and the segments are deleted once it is in place.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { EngineError, type EnginePorts, type Project, type RenderQueueItem } from '../../engine/index.js';
import { MUXED_AUDIO_ARGS } from '../queue/exporters/audio-formats.js';
import { sha256File } from '../hash.js';
import { findFfmpeg, missingFfmpeg } from '../queue/exporters/ffmpeg.js';
import type { OutputFile } from '../queue/exporters/types.js';
import type { FileTracker } from '../queue/tracker.js';
import { mixItemSound } from './item-sound.js';

const run = promisify(execFile);

/** The sound codec a local render muxes into `format` (audio-formats.ts): the same, so the output matches. */
function muxedAudioArgs(format: string): string[] {
  return (MUXED_AUDIO_ARGS as Record<string, string[] | undefined>)[format] ?? [];
}

/** A concat list line: single quotes in a path are closed, escaped and reopened (ffmpeg's quoting). */
const listLine = (path: string) => `file '${path.replace(/'/g, "'\\''")}'`;

export async function joinSegments(
  tracker: FileTracker,
  item: RenderQueueItem,
  segments: readonly OutputFile[],
  options: { findFfmpeg?: () => Promise<string | null>; ports: EnginePorts },
  /** The project when the output carries sound (mixed once here, muxed while joining); null: silent. */
  soundDoc: Project | null,
): Promise<OutputFile[]> {
  const ffmpeg = await (options.findFfmpeg ?? findFfmpeg)();
  if (!ffmpeg) throw missingFfmpeg(item.format);
  const listDir = await mkdtemp(join(tmpdir(), 'effectcraft-concat-'));
  try {
    const list = join(listDir, 'segments.txt');
    await writeFile(list, segments.map((s) => listLine(s.path)).join('\n') + '\n');
    await tracker.ensureDir(dirname(item.output));
    const mix = soundDoc ? await mixItemSound(tracker, soundDoc, item, options.ports, ffmpeg) : null;
    const codecs = mix
      ? ['-i', mix.childPath, '-map', '0:v', '-map', '1:a', '-c:v', 'copy', ...muxedAudioArgs(item.format)]
      : ['-c', 'copy'];
    const file = await tracker.create(item.output);
    const container = item.format === 'mp4' ? ['-movflags', '+faststart', '-f', 'mp4'] : ['-f', 'mov'];
    await run(ffmpeg, [
      '-v',
      'error',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      ...codecs,
      ...container,
      '-y',
      file.childPath,
    ]).catch((err: { stderr?: string }) => {
      throw new EngineError(
        'render_failed',
        `ffmpeg could not join the segments of "${item.output}": ${(err.stderr ?? '').trim().split('\n').at(-1) ?? ''}`,
        'Render again; if it keeps failing, render this item without --redis.',
      );
    });
    await tracker.commit(file);
    if (mix) await tracker.discard(mix);
    const { size } = await stat(file.readPath);
    const joined = { path: file.finalPath, bytes: size, sha256: await sha256File(file.readPath) };
    await Promise.all(segments.map((s) => unlink(s.path).catch(() => undefined)));
    return [joined];
  } finally {
    await rm(listDir, { recursive: true, force: true });
  }
}
