/**
 * The one sha256 helper of rendering (frame commands and render results): of bytes in memory, or of a file on
 * disk (streamed, so large videos are not loaded whole).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function sha256File(path: string): Promise<string> {
  return sha256Stream(createReadStream(path));
}

/** Of a stream of bytes (a file opened by the caller, e.g. without following links). */
export async function sha256Stream(stream: AsyncIterable<unknown>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
