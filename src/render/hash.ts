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
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
