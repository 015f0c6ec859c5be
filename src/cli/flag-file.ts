/** The text of a file a flag names (--props FILE, --data FILE), read with a bound. */
import { closeSync, openSync, readSync } from 'node:fs';
import { UsageError } from './usage.js';

/**
 * Reads `path` as UTF-8, at most `max` bytes: a value past that is refused as a usage error naming `flag`. A pipe
 * (`--props <(jq ...)`) reads as a file does; a device that never ends (`--props /dev/zero`) is refused at the
 * bound, where a plain readFileSync grew until the process aborted (std::bad_alloc). fs errors are thrown as
 * they are, for the caller to put in words.
 */
export function readFlagFile(path: string, max: number, flag: string): string {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(1 << 20, max + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > max)
        throw new UsageError(
          `${flag}: "${path}" holds more than ${max / 1024 ** 2} MiB; it is not a file of values.`,
          `Give ${flag} a file of at most ${max / 1024 ** 2} MiB.`,
        );
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
