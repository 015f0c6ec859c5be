/**
 * Where executables (ffmpeg) are looked for when the caller passes no PATH. The CLI passes the user's $PATH
 * (src/cli is the only reader of the environment); library callers and tests that pass nothing get the usual
 * system folders of Linux and macOS (Homebrew included), where a packaged ffmpeg lives.
 */
import { delimiter } from 'node:path';

export const DEFAULT_SEARCH_PATH = ['/usr/local/bin', '/usr/bin', '/bin', '/opt/homebrew/bin'].join(
  delimiter,
);
