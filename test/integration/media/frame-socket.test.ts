// The socket pair a decoder's stdout goes through (src/render/media/frame-socket.ts): a real child process writes
// to its end, and every byte must land, in order, in the buffers the reader supplied; returning false must stop
// the reading (the child then blocks) until resume; the private directory the pair was made in must be gone at
// once; and where no pair can be made (no temporary directory, a path too long for a socket) it is null.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readerSocketPair } from '../../../src/render/media/frame-socket.js';
import { tempDir } from '../../helpers/tmp.js';

const BYTES = 4 * 1024 * 1024;
const byteAt = (i: number) => (i * 7 + (i >> 10)) & 255;
/** A child writing BYTES bytes of the pattern to its stdout, then exiting. */
const WRITER = `const b = Buffer.alloc(${BYTES}); for (let i = 0; i < b.length; i++) b[i] = (i * 7 + (i >> 10)) & 255; process.stdout.write(b);`;

const savedTmp = process.env.TMPDIR;
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

describe('reader socket pair', () => {
  it("fills the caller's buffers with a child's stdout, in order, pausing when told, and leaves no file", async () => {
    const tmp = await tempDir();
    process.env.TMPDIR = tmp;
    const target = Buffer.alloc(BYTES);
    let filled = 0;
    let reads = 0;
    let given: Uint8Array | null = null;
    let pauseNext = true;
    const pair = await readerSocketPair({
      buffer: () => (given = target.subarray(filled, Math.min(BYTES, filled + 100_000))),
      read: (n) => {
        reads++;
        // Each read lands in the buffer handed out for it, never beyond it.
        expect(n).toBeLessThanOrEqual(given!.byteLength);
        filled += n;
        if (pauseNext) {
          pauseNext = false;
          return false;
        }
        return true;
      },
    });
    expect(pair).not.toBeNull();
    // The listening socket and its directory went as soon as the pair was made.
    expect(await readdir(tmp)).toEqual([]);
    const child = spawn(process.execPath, ['-e', WRITER], { stdio: ['ignore', pair!.childEnd, 'inherit'] });
    pair!.childEnd.destroy();
    let exited = false;
    child.on('exit', () => (exited = true));
    await new Promise((r) => setTimeout(r, 400));
    // Paused after the first read: nothing more is read, and the writer waits for room.
    expect(reads).toBe(1);
    expect(exited).toBe(false);
    const ended = new Promise((r) => pair!.reader.once('close', r));
    pair!.reader.resume();
    await ended;
    expect(filled).toBe(BYTES);
    let wrong = -1;
    for (let i = 0; i < BYTES && wrong < 0; i++) if (target[i] !== byteAt(i)) wrong = i;
    expect(wrong).toBe(-1);
    expect(reads).toBeGreaterThan(1);
  });

  it('is null where no temporary directory can be made, or its socket path would be too long', async () => {
    const buffers = { buffer: () => Buffer.alloc(16), read: () => true };
    const tmp = await tempDir();
    process.env.TMPDIR = join(tmp, 'missing');
    expect(await readerSocketPair(buffers)).toBeNull();
    process.env.TMPDIR = join(tmp, 'd'.repeat(60), 'e'.repeat(60));
    const { mkdir } = await import('node:fs/promises');
    await mkdir(process.env.TMPDIR, { recursive: true });
    expect(await readerSocketPair(buffers)).toBeNull();
    // Nothing is made where the socket path would be too long.
    expect(await readdir(process.env.TMPDIR)).toEqual([]);
  });
});
