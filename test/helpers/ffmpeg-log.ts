/**
 * A wrapper ffmpeg for tests that check how ffmpeg was really started: a real process that logs its arguments
 * and runs the real ffmpeg, so the files it writes are real too.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A wrapper ffmpeg that appends its arguments (one per line, then a blank line) to `log` and runs `real`. */
export async function loggingFfmpeg(
  dir: string,
  real: string,
): Promise<{ path: string; runs: () => Promise<string[][]> }> {
  const log = join(dir, 'ffmpeg-args.log');
  const path = join(dir, 'ffmpeg');
  await writeFile(
    path,
    `#!/bin/sh\nprintf '%s\\n' "$@" >> '${log}'\necho >> '${log}'\nexec '${real}' "$@"\n`,
  );
  await chmod(path, 0o755);
  const runs = async () =>
    (await readFile(log, 'utf8'))
      .split('\n\n')
      .filter((r) => r.trim())
      .map((r) => r.split('\n').filter((a) => a !== ''));
  return { path, runs };
}

/** The pixel format of the raw picture input (the -pix_fmt before `-i pipe:0`). */
export function pictureFormat(args: string[]): string | undefined {
  const input = args.indexOf('pipe:0');
  return args[args.lastIndexOf('-pix_fmt', input) + 1];
}
