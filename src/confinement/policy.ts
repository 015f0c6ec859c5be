/**
 * The root check: may this path be read, or written, under these roots? Reads are allowed below any
 * read or write root, writes only below a write root.
 */
import type { ErrorInfo } from '../engine/index.js';
import { outsideRoots, SERVER_RESTART, unusablePath, type RestartHint } from './errors.js';
import { isInside, resolveReal } from './path-resolve.js';
import type { ResolvedRoots } from './roots.js';

export type Access = 'read' | 'write';

export type PathCheck = { ok: true; real: string; exists: boolean } | { ok: false; error: ErrorInfo };

/** A render output's frame field (`[####]`). */
const FRAME_FIELD = /\[#+\]/;

export interface Policy {
  readonly roots: ResolvedRoots;
  readonly confined: boolean;
  /** Who to restart to change the roots, named in refusals. */
  readonly restart: RestartHint;
  /** Resolves and checks one path; on success returns the real path to open. */
  check(path: string, access: Access, param: string): PathCheck;
}

/** Builds the check for a fixed set of (already real) roots. */
export function createPolicy(roots: ResolvedRoots, restart: RestartHint = SERVER_RESTART): Policy {
  const confined = roots.readRoots.length > 0 || roots.writeRoots.length > 0;
  const allowedIn = (access: Access): string[] =>
    access === 'write' ? roots.writeRoots : [...roots.readRoots, ...roots.writeRoots];

  return {
    roots,
    confined,
    restart,
    check(path, access, param) {
      const resolved = resolveReal(path);
      if (!resolved.ok) return { ok: false, error: unusablePath(param, path, resolved.reason) };
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
        const viaLink = normalise(path) !== resolved.real;
        return { ok: false, error: outsideRoots(param, path, access, roots, viaLink, restart) };
      }
      return { ok: true, real: resolved.real, exists: resolved.exists };
    },
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
