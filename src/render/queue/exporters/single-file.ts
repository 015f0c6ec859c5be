/**
 * What every one-file output (video, animated, audio-only) does the same way: skip the item when its file
 * exists and skipExisting is on, and complete a finished temporary (never trusting ffmpeg's exit alone).
 */
import { promises as fs } from 'node:fs';
import { EngineError } from '../../../engine/index.js';
import { sha256File } from '../../hash.js';
import type { TrackedFile } from '../tracker.js';
import type { ExporterContext, OutputFile } from './types.js';

/**
 * One file: with skipExisting and the file present, the whole item is skipped. A folder where the file goes is
 * refused now, before any frame: the rename at the end would fail (naming the temporary) after the whole render.
 */
export async function skipWhenPresent(ctx: ExporterContext): Promise<ReadonlySet<number> | 'all'> {
  const found = await fs.lstat(ctx.item.output).catch(() => null);
  if (found?.isDirectory())
    throw new EngineError(
      'bad_argument',
      `Cannot write "${ctx.item.output}": it is a folder, and the ${ctx.item.format} output is one file.`,
      'Give the output a file name (inside that folder, say), or remove the folder.',
    );
  if (!ctx.item.skipExisting) return new Set();
  return found ? 'all' : new Set();
}

/**
 * Renames the finished temporary `file` to its final name and reports it. An empty temporary means ffmpeg
 * lost its output (a full disk, typically) even if it exited 0. `fixUp` rewrites the temporary in place first.
 */
export async function completeFile(
  ctx: ExporterContext,
  file: TrackedFile,
  fixUp?: (path: string) => Promise<unknown>,
): Promise<OutputFile[]> {
  const written = await fs.stat(file.childPath);
  if (written.size === 0)
    throw new EngineError(
      'render_failed',
      `ffmpeg finished but wrote an empty file for "${ctx.item.output}".`,
      'Check the free space on the output volume, then render again.',
    );
  await fixUp?.(file.childPath);
  await ctx.tracker.commit(file);
  const { size } = await fs.stat(file.readPath);
  return [{ path: file.finalPath, bytes: size, sha256: await sha256File(file.readPath) }];
}
