/** A wrapper ffmpeg that logs the nice value each real ffmpeg ran at, and what it was (feeder-priority tests). */
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A wrapper ffmpeg logging "<nice> decoder|encoder|other" a run, and the runs it logged. */
export async function niceLoggingFfmpeg(dir: string) {
  const real = execFileSync('which', ['ffmpeg'], { encoding: 'utf8' }).trim();
  const log = join(dir, 'nice.log');
  const path = join(dir, 'ffmpeg');
  await writeFile(
    path,
    [
      '#!/bin/sh',
      'role=other',
      'for a in "$@"; do [ "$a" = pipe:1 ] && role=decoder; [ "$a" = pipe:0 ] && role=encoder; done',
      `echo "$(nice) $role" >> '${log}'`,
      `exec '${real}' "$@"`,
    ].join('\n') + '\n',
  );
  await chmod(path, 0o755);
  const runs = async () =>
    (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => ({ nice: Number(line.split(' ')[0]), role: line.split(' ')[1]! }));
  return { path, runs };
}
