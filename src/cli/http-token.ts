/**
 * The bearer token `mcp --http` requires on every request: from EFFECTCRAFT_MCP_TOKEN, or from a user-only token
 * file that is created with a fresh random token when absent (so a client configured once keeps working across
 * restarts). Security: any local process or user can reach a loopback port; Host and Origin checks only stop
 * browsers, so the token is what keeps others from running commands (and scripts) as this user.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { newToken, readTokenFile, writeTokenFile } from '../bridge/auth.js';
import { UsageError } from './usage.js';

export const TOKEN_ENV = 'EFFECTCRAFT_MCP_TOKEN';

export interface HttpToken {
  token: string;
  /** Where it came from, for the start-up line (never the token itself). */
  source: string;
}

/** The default token file: the user's runtime directory when there is one, else the config directory. */
export function defaultHttpTokenPath(env: NodeJS.ProcessEnv): string {
  const runtime = env.XDG_RUNTIME_DIR || undefined;
  const base = runtime ? join(runtime, 'effectcraft') : join(homedir(), '.config', 'effectcraft');
  return join(base, 'mcp-http.token');
}

/** Resolves the token for `mcp --http`: the environment first, then the token file (created when absent). */
export async function httpToken(flag: string | undefined, env: NodeJS.ProcessEnv): Promise<HttpToken> {
  const fromEnv = env[TOKEN_ENV]?.trim() || undefined;
  if (fromEnv !== undefined && flag === undefined) {
    if (fromEnv.length < 16)
      throw new UsageError(
        `${TOKEN_ENV} must hold at least 16 characters (a random token); it has ${fromEnv.length}.`,
      );
    return { token: fromEnv, source: `the ${TOKEN_ENV} environment variable` };
  }
  const path = resolve(flag ?? defaultHttpTokenPath(env));
  const read = await readTokenFile(path);
  if (read.ok) {
    // Security: like ssh with a private key, refuse a token other users could read.
    const mode = (await stat(path)).mode & 0o777;
    if (mode & 0o077)
      throw new UsageError(
        `The token file ${path} can be read by other users (mode ${mode.toString(8)}). Run: chmod 600 ${path}`,
      );
    return { token: read.token, source: `token file ${path}` };
  }
  if (read.reason !== 'missing')
    throw new UsageError(
      `The token file ${path} is ${read.reason}. Remove it to have a new token made, or fix it.`,
    );
  const token = newToken();
  await writeTokenFile(path, token);
  return { token, source: `token file ${path} (new)` };
}
