/**
 * Who may drive the app: a random token in a user-only file, and no browser origins unless allowed.
 * The checks are values, not exceptions, so the upgrade handler maps them straight to 401/403.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from '../node-io/atomic-write.js';
import { readRegularFile } from '../node-io/read-regular.js';
import { makeDirs } from '../node-io/make-dirs.js';
import { dirname, join } from 'node:path';

/** A fresh token: 32 random bytes, hex. */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Where the app writes its token for `port` by default: the user's runtime directory when there is one
 * (tmpfs, cleared at logout), else the config directory. The CLI passes the environment in.
 */
export function defaultTokenPath(port: number, env: { runtimeDir?: string; home: string }): string {
  const base = env.runtimeDir
    ? join(env.runtimeDir, 'effectcraft')
    : join(env.home, '.config', 'effectcraft');
  return join(base, `bridge-${port}.token`);
}

/**
 * Writes the token so that it is never readable by others, not even for an instant: the temporary is created
 * with mode 0600 and set to exactly 0600 before the token is written, then fsynced and renamed over the target.
 */
export async function writeTokenFile(path: string, token: string): Promise<void> {
  await makeDirs(dirname(path), 0o700);
  // Security: exactMode, as the umask can only remove bits but a default ACL on the folder could add some.
  await writeFileAtomic(path, token + '\n', { mode: 0o600, exactMode: true });
}

/** Removes the token file if it still holds `token` (another app may have replaced it since). */
export async function removeTokenFile(path: string, token: string): Promise<void> {
  try {
    if ((await readFile(path, 'utf8')).trim() === token) await rm(path, { force: true });
  } catch {
    // Already gone: nothing to clean up.
  }
}

export type TokenRead =
  { ok: true; token: string } | { ok: false; reason: 'missing' | 'empty' | 'unreadable' };

/** Reads a token file written by the app. */
export async function readTokenFile(path: string): Promise<TokenRead> {
  try {
    // A token is 64 hex characters; a FIFO or a huge file in its place must not hang or fill the reader.
    const token = (await readRegularFile(path, { maxBytes: 4096 })).toString('utf8').trim();
    return token ? { ok: true, token } : { ok: false, reason: 'empty' };
  } catch (err) {
    return { ok: false, reason: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
  }
}

/** Extracts the token from `Authorization: Bearer <token>`. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
export function tokenMatches(expected: string, given: string | null): boolean {
  if (given === null) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  // Compare against itself on a length mismatch so both paths cost the same.
  return a.length === b.length ? timingSafeEqual(a, b) : (timingSafeEqual(a, a), false);
}

export type UpgradeCheck = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/**
 * Decides an upgrade request. Security: web pages always send Origin, so any Origin that is not explicitly
 * allowed is refused (a page on evil.example must not reach a localhost app); native clients send none.
 */
export function checkUpgrade(
  headers: { authorization?: string; origin?: string },
  token: string,
  allowedOrigins: readonly string[],
): UpgradeCheck {
  if (headers.origin !== undefined && !allowedOrigins.includes(headers.origin))
    return { ok: false, status: 403, reason: `Origin "${headers.origin}" is not allowed` };
  if (!tokenMatches(token, bearerToken(headers.authorization)))
    return { ok: false, status: 401, reason: 'missing or wrong token' };
  return { ok: true };
}
