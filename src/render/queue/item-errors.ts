/** The errors render items report: stopped, removed mid-render, and raw failures worded for clients. */
import { EngineError, fsError, type ErrorInfo, type SurfaceWords } from '../../engine/index.js';

/** The error of an item stopped before it finished. */
export const stopped = (): EngineError =>
  new EngineError('cancelled', 'The render was stopped.', 'Render again to finish it.');

/**
 * The error of a resumable item stopped before it finished: what it kept, and how to go on from it. A one-file
 * output (a video, a GIF, a sound) keeps nothing unfinished, and a next run renders it whole: it says so, rather
 * than promise "only the rest".
 */
export const stoppedKeeping = (frames: number, oneFile = false): EngineError =>
  oneFile
    ? new EngineError(
        'cancelled',
        'The render was stopped. Its output is one file, complete only when the render is: nothing unfinished is kept, and an earlier file of that name is as it was.',
        'Render again to make the whole file (resume continues image sequences only).',
      )
    : new EngineError(
        'cancelled',
        `The render was stopped; the ${frames} frame${frames === 1 ? '' : 's'} it completed ${frames === 1 ? 'is' : 'are'} kept.`,
        // Item errors cross workers and jobs as plain text: both surfaces' ways are named.
        'Render again with resume (renderQueue.render {resume: true}; at the CLI, render --resume) to render only the rest.',
      );

/** Throws `stopped()` once the item's signal has aborted (the job stopped, or the item was removed). */
export function throwIfStopped(signal: AbortSignal): void {
  if (signal.aborted) throw stopped();
}

/**
 * A stopping point inside a long loop over frames or files: yields to the event loop first, because a loop
 * that never does keeps renderQueue.stop itself from running, then throws `stopped()` once `signal` aborted.
 */
export async function checkpoint(signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfStopped(signal);
}

/** Why an item removed from the queue during the job has no output. */
export function removedError(id: string): ErrorInfo {
  return new EngineError(
    'not_found',
    `Queue item "${id}" was removed during the render; it was not rendered (its unfinished files were removed).`,
    'Add it to the render queue again and render to get its output.',
  ).toInfo();
}

/** Errors as clients see them: raw Node fs errors (EROFS, EACCES, ENOSPC...) get fsError's words and remedy. */
export function toInfo(err: unknown, output: string, words?: SurfaceWords): ErrorInfo {
  if (err instanceof EngineError) return err.toInfo(words);
  const errno = err as NodeJS.ErrnoException | undefined;
  if (typeof errno?.code === 'string' && typeof errno.syscall === 'string')
    return fsError(err, errno.path ?? output, 'write').toInfo();
  return {
    code: 'render_failed',
    message: `Rendering failed: ${err instanceof Error ? err.message : String(err)}`,
    remediation: 'Render again; if it keeps failing, check the output folder and the composition.',
  };
}
