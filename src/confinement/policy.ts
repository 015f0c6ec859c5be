/**
 * The root check: may this path be read, or written, under these roots? Reads are allowed below any
 * read or write root, writes only below a write root.
 */
import type { ErrorInfo } from '../engine/index.js';
import { join } from 'node:path';
import { outsideRoots, reservedFolder, SERVER_RESTART, unusablePath, type RestartHint } from './errors.js';
import { isInside, resolveReal, syntaxProblem } from './path-resolve.js';
import type { ResolvedRoots } from './roots.js';

export type Access = 'read' | 'write';

export type PathCheck = { ok: true; real: string; exists: boolean } | { ok: false; error: ErrorInfo };

/**
 * The folder in each write root where a render node keeps the samples clients upload (docs/remote.md). Only the
 * upload store writes there, and not through the confinement: every write that goes through it is refused, so
 * no render, save or frame replaces a sample (another client would then import bytes it never uploaded).
 */
export const UPLOADS_FOLDER = '.effectcraft-uploads';

/** A render output's frame field (`[####]`). */
const FRAME_FIELD = /\[#+\]/;

export interface Policy {
  readonly roots: ResolvedRoots;
  readonly confined: boolean;
  /** Who to restart to change the roots, named in refusals. */
  readonly restart: RestartHint;
  /** Resolves and checks one path; on success returns the real path to open. */
  check(path: string, access: Access, param: string): PathCheck;
  /** Whether a real path may be written: inside a write root, and not in its uploads folder. */
  writable(real: string): boolean;
}

/** Builds the check for a fixed set of (already real) roots. */
export function createPolicy(roots: ResolvedRoots, restart: RestartHint = SERVER_RESTART): Policy {
  const confined = roots.readRoots.length > 0 || roots.writeRoots.length > 0;
  const allRoots = [...roots.readRoots, ...roots.writeRoots];
  const allowedIn = (access: Access): string[] => (access === 'write' ? roots.writeRoots : allRoots);
  const reserved = roots.writeRoots.map((root) => join(root, UPLOADS_FOLDER));
  const inReserved = (real: string) => reserved.find((dir) => isInside(real, dir));

  return {
    roots,
    confined,
    restart,
    check(path, access, param) {
      const resolved = resolveReal(path);
      // Security: what lies outside every root is none of the agent's business. A path that does not even name
      // a place inside a root gets one refusal, whether it is missing, a file, a link or a dangling link, so
      // refusals cannot be used to probe for files and links anywhere on the machine.
      const named = syntaxProblem(path) === null && allRoots.some((root) => isInside(normalise(path), root));
      if (!resolved.ok) {
        const syntactic =
          resolved.reason === 'relative' || resolved.reason === 'dot_dot' || resolved.reason === 'nul';
        if (!syntactic && !named) {
          return { ok: false, error: outsideRoots(param, path, access, roots, false, restart) };
        }
        return { ok: false, error: unusablePath(param, path, resolved.reason) };
      }
      // Security: an output template is checked by its directory and file name as given; a frame field in a
      // directory would expand to names (`/out/0001/`) we never resolved, any of which could be a link out.
      const dirPart = path.slice(0, path.lastIndexOf('/'));
      if (access === 'write' && FRAME_FIELD.test(dirPart)) {
        return {
          ok: false,
          error: {
            code: 'path_outside_roots',
            message: `"${param}": the frame field of ${JSON.stringify(path)} is in a directory name, which cannot be checked while confined.`,
            remediation: 'Put the [###] frame field in the file name, e.g. /out/shot_[####].png.',
          },
        };
      }
      if (!allowedIn(access).some((root) => isInside(resolved.real, root))) {
        // Whether a link led out is told only for paths named inside a root (the agent may look there).
        const viaLink = named && normalise(path) !== resolved.real;
        return { ok: false, error: outsideRoots(param, path, access, roots, viaLink, restart) };
      }
      // Security: uploaded samples are read-only to commands (a link into the folder is resolved above).
      const uploads = access === 'write' ? inReserved(resolved.real) : undefined;
      if (uploads) return { ok: false, error: reservedFolder(param, path, uploads, restart) };
      return { ok: true, real: resolved.real, exists: resolved.exists };
    },
    writable: (real) =>
      roots.writeRoots.some((root) => isInside(real, root)) && inReserved(real) === undefined,
  };
}

/** `//a/./b/` -> `/a/b`, for telling whether a symlink changed where the path leads. */
function normalise(path: string): string {
  return (
    '/' +
    path
      .split('/')
      .filter((s) => s !== '' && s !== '.')
      .join('/')
  );
}
