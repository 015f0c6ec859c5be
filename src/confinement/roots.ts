/**
 * Roots are resolved once, at start-up: each must be an existing directory, and is kept as its real path
 * so later checks compare real paths with real paths.
 */
import { realpathSync, statSync } from 'node:fs';
import type { RestartHint } from './errors.js';

export const READ_FLAG = '--automation-read-root';
export const WRITE_FLAG = '--automation-write-root';

export interface RootOptions {
  /** Directories the agent may read below (write roots are readable too). */
  readRoots?: readonly string[];
  /** Directories the agent may write below. With none, nothing is written. */
  writeRoots?: readonly string[];
  /** Who to restart to change the roots, named in refusals (default: the server). */
  restart?: RestartHint;
}

export interface ResolvedRoots {
  readRoots: string[];
  writeRoots: string[];
}

export type RootsResult = { ok: true; roots: ResolvedRoots } | { ok: false; message: string };

function resolveOne(dir: string, flag: string): { ok: true; real: string } | { ok: false; message: string } {
  if (dir === '' || dir.includes('\0'))
    return { ok: false, message: `${flag} "${dir}": not a directory path.` };
  let real: string;
  try {
    real = realpathSync.native(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'no such directory'
        : code === 'ELOOP'
          ? 'a symbolic link loop'
          : code === 'EACCES'
            ? 'permission denied'
            : `cannot be resolved (${code ?? 'unknown error'})`;
    return { ok: false, message: `${flag} "${dir}": ${why}. Pass an existing directory.` };
  }
  if (!statSync(real).isDirectory()) {
    return { ok: false, message: `${flag} "${dir}": not a directory. Pass a directory, not a file.` };
  }
  return { ok: true, real };
}

/** Resolves every root with realpath; the first bad root is reported with the flag that named it. */
export function resolveRoots(options: RootOptions): RootsResult {
  const out: ResolvedRoots = { readRoots: [], writeRoots: [] };
  const lists: [readonly string[], string, string[]][] = [
    [options.readRoots ?? [], READ_FLAG, out.readRoots],
    [options.writeRoots ?? [], WRITE_FLAG, out.writeRoots],
  ];
  for (const [dirs, flag, into] of lists) {
    for (const dir of dirs) {
      const r = resolveOne(dir, flag);
      if (!r.ok) return r;
      if (!into.includes(r.real)) into.push(r.real);
    }
  }
  return { ok: true, roots: out };
}
