/**
 * Media files for child processes: opened (and checked) here, read by ffprobe/ffmpeg through
 * `/proc/<pid>/fd/N`, which names this very open file. A child opens its own description of the same inode,
 * so it can seek freely, and a path swapped after our open cannot redirect it.
 */
import { existsSync, type promises as fs } from 'node:fs';
import type { MediaFile } from '../engine/index.js';
import { openRegularFile } from './read-regular.js';

/** Video files are streamed, never read whole: the bound is far above any real clip. */
export const MAX_MEDIA_BYTES = Number.MAX_SAFE_INTEGER;

const PROC_FD = existsSync('/proc/self/fd');

/** Wraps an opened handle; without /proc (macOS) children read `real` by path. */
export function mediaFileOf(handle: fs.FileHandle, real: string): MediaFile {
  let closed: Promise<void> | undefined;
  return {
    childPath: PROC_FD ? `/proc/${process.pid}/fd/${handle.fd}` : real,
    close: () => (closed ??= handle.close().catch(() => undefined)),
  };
}

/** Opens `path` (a regular file) for child processes, unconfined. */
export async function openMediaFile(path: string): Promise<MediaFile> {
  return mediaFileOf(await openRegularFile(path, { maxBytes: MAX_MEDIA_BYTES }), path);
}
