/**
 * Where executables (ffmpeg) are looked for when the caller passes no PATH. The CLI passes the user's $PATH
 * (src/cli is the only reader of the environment); library callers and tests that pass nothing get the usual
 * system folders of Linux and macOS (Homebrew included), where a packaged ffmpeg lives.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export const DEFAULT_SEARCH_PATH = ['/usr/local/bin', '/usr/bin', '/bin', '/opt/homebrew/bin'].join(
  delimiter,
);

/** The first executable file `name` in the folders of `searchPath` (PATH-style), or null when there is none. */
export async function findExecutable(name: string, searchPath = DEFAULT_SEARCH_PATH): Promise<string | null> {
  for (const dir of searchPath.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    const ok = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (ok) return candidate;
  }
  return null;
}
