/** sha256 of an open file, read through its handle (never by path again, so a swapped path changes nothing). */
import { createHash } from 'node:crypto';
import type { promises as fs } from 'node:fs';

/** sha256 of the first `size` bytes of `file`. */
export async function hashHandle(file: fs.FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(Math.min(size, 4 * 1024 * 1024) || 1);
  for (let at = 0; at < size;) {
    const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - at), at);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
  return hash.digest('hex');
}
