/**
 * A connected pair of local stream sockets for a decoder's stdout: `childEnd` goes to spawn as the child's
 * stdout, `reader` stays here and reads into buffers the caller supplies (net's `onread`).
 *
 * Why not spawn's own 'pipe': its reads land in a fresh 64 KB buffer each, so a 1080p I420 frame arrived as ~50
 * chunks to allocate, copy into the frame and collect; in a footage render that garbage was a third of the
 * render worker's CPU. Here the bytes are read straight into the frame being filled. Node offers no socketpair,
 * so the pair is made by a listening socket in a private directory (mode 0700: no other user can connect),
 * which is closed and removed as soon as the one connection is made.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReaderBuffers {
  /** The buffer the next read fills (at least one byte). */
  buffer(): Uint8Array;
  /** `n` bytes were read into the last buffer; false pauses reading until `reader.resume()`. */
  read(n: number): boolean;
}

export interface SocketPair {
  childEnd: Socket;
  reader: Socket;
}

/** A path for a Unix socket stays under the shortest limit (104 bytes on macOS), or the pair is not made. */
const MAX_SOCKET_PATH = 100;

/** The pair, or null where it cannot be made (Windows, an unwritable or too deep temporary directory). */
export async function readerSocketPair(buffers: ReaderBuffers): Promise<SocketPair | null> {
  if (process.platform === 'win32') return null;
  // mkdtemp puts six characters after the prefix.
  if (Buffer.byteLength(join(tmpdir(), 'ec-dec-XXXXXX', 's')) > MAX_SOCKET_PATH) return null;
  let dir: string | null = null;
  let reader: Socket | null = null;
  const server = createServer();
  try {
    dir = await mkdtemp(join(tmpdir(), 'ec-dec-'));
    const path = join(dir, 's');
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, resolve);
    });
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    reader = createConnection({
      path,
      onread: { buffer: () => buffers.buffer(), callback: (n: number) => buffers.read(n) },
    });
    const connecting = reader;
    await new Promise<void>((resolve, reject) => {
      connecting.once('connect', resolve);
      connecting.once('error', reject);
    });
    return { childEnd: await accepted, reader };
  } catch {
    reader?.destroy();
    return null;
  } finally {
    server.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}
