/**
 * The bearer token `mcp --http` requires on every request: from the environment variable named by
 * `--token-env NAME`, or from a user-only token file (`--token-file PATH`, or the default location) that is
 * created with a fresh random token when absent, so a client configured once keeps working across restarts.
 * Security: any local process or user can reach a loopback port; Host and Origin checks only stop browsers, so
 * the token is what keeps others from running commands (and scripts) as this user. It is never printed.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { newToken, readTokenFile, writeTokenFile } from '../bridge/auth.js';
import { UsageError } from './usage.js';

/** A token shorter than this is guessable; ours are 64 hex characters. */
const MIN_TOKEN_LENGTH = 16;

export interface HttpToken {
  token: string;
  /** Where it came from, for the start-up line and the 401 remedy (never the token itself). */
  source: string;
  /** Whether the token file was created at this start (said once, in the start-up line). */
  created: boolean;
}

export interface TokenFlags {
  'token-file'?: string;
  'token-env'?: string;
}

/** The default token file: the user's runtime directory when there is one, else the config directory. */
export function defaultHttpTokenPath(env: NodeJS.ProcessEnv): string {
  const runtime = env.XDG_RUNTIME_DIR || undefined;
  const base = runtime ? join(runtime, 'effectcraft') : join(homedir(), '.config', 'effectcraft');
  return join(base, 'mcp-http.token');
}

/** Resolves the token for `mcp --http` from the flags: the named environment variable, or the token file. */
export async function httpToken(flags: TokenFlags, env: NodeJS.ProcessEnv): Promise<HttpToken> {
  const name = flags['token-env'];
  if (name !== undefined) {
    if (flags['token-file'] !== undefined)
      throw new UsageError('Pass --token-file or --token-env, not both.');
    const value = env[name]?.trim() ?? '';
    if (value.length < MIN_TOKEN_LENGTH)
      throw new UsageError(
        `--token-env ${name}: the environment variable ${value ? `holds ${value.length} characters; a token needs at least ${MIN_TOKEN_LENGTH}` : 'is not set'}.`,
      );
    return { token: value, source: `the environment variable ${name}`, created: false };
  }
  const path = resolve(flags['token-file'] ?? defaultHttpTokenPath(env));
  const read = await readTokenFile(path);
  if (read.ok) {
    // Security: like ssh with a private key, refuse a token other users could read.
    const mode = (await stat(path)).mode & 0o777;
    if (mode & 0o077)
      throw new UsageError(
        `The token file ${path} can be read by other users (mode ${mode.toString(8)}). Run: chmod 600 ${path}`,
      );
    if (read.token.length < MIN_TOKEN_LENGTH)
      throw new UsageError(
        `The token in ${path} is shorter than ${MIN_TOKEN_LENGTH} characters; use a random token.`,
      );
    return { token: read.token, source: `the token file ${path}`, created: false };
  }
  if (read.reason !== 'missing')
    throw new UsageError(
      `The token file ${path} is ${read.reason}. Remove it to have a new token made, or fix it.`,
    );
  await writeTokenFile(path, newToken());
  const made = await readTokenFile(path);
  if (!made.ok) throw new UsageError(`Could not write the token file ${path}.`);
  return { token: made.token, source: `the token file ${path}`, created: true };
}
