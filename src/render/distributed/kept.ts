/**
 * The earlier files a distributed render replaced, as a local one treats them: a local render keeps them
 * aside until the item completes (FileTracker) and puts them back when it is stopped. A distributed chunk
 * completes long before its item does, so its FileTracker hands them over (KeptAside) and the chunk reports
 * them in its ChunkResult: the assembly deletes them once the item is complete; a stopped or failed item puts
 * them back. Both are safe to run twice (a job delivered again, a stop racing an assembly).
 */
import { rename, unlink } from 'node:fs/promises';
import type { ChunkResult } from './protocol.js';

/** The hidden names' tag for one render: the same for every delivery of its chunks (tracker.ts KeptAside). */
export const keptTag = (renderId: string) => renderId.slice(0, 8);

/** The item is complete: the earlier files its chunks replaced are deleted. */
export async function dropKept(chunks: readonly ChunkResult[]): Promise<void> {
  await Promise.all(chunks.flatMap((c) => c.kept).map((k) => unlink(k.aside).catch(() => undefined)));
}

/**
 * The item did not complete: the files a completed chunk wrote are removed, and where one replaced an earlier
 * file, the earlier file is put back over it (one rename). A put-back already done finds no hidden name and
 * leaves the earlier file alone: a name that was kept is never deleted.
 */
export async function undoChunk(chunk: ChunkResult): Promise<void> {
  const kept = new Set(chunk.kept.map((k) => k.path));
  await Promise.all([
    ...chunk.kept.map((k) => rename(k.aside, k.path).catch(() => undefined)),
    ...chunk.files.filter((f) => !kept.has(f.path)).map((f) => unlink(f.path).catch(() => undefined)),
  ]);
}
