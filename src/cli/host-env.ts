/**
 * What the code below src/cli takes from the environment, read here once and passed down as options:
 * src/cli is the only reader of process.env, so the engine, the render queue and the MCP server stay
 * testable with explicit values.
 */
import type { SessionOptions } from '../session.js';

/** Session options from the environment: $PATH is where ffmpeg is looked for (unset: the library default). */
export function sessionEnv(): Pick<SessionOptions, 'searchPath'> {
  return { searchPath: process.env.PATH };
}
