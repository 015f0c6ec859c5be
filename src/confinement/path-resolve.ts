/**
 * Turning a path an agent gave us into the real path the kernel would reach, without touching the file.
 * Synchronous on purpose: the engine's CommandGuard is synchronous, and a handful of realpath/lstat calls
 * per command is cheap.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

export type ResolveFailure =
  'relative' | 'dot_dot' | 'nul' | 'loop' | 'dangling' | 'too_long' | 'unresolvable';

export type Resolved =
  | {
      ok: true;
      /** The real path: symlinks resolved through the longest existing ancestor, the rest appended as given. */
      real: string;
      /** Whether the whole path exists now (false for a file about to be created). */
      exists: boolean;
    }
  | { ok: false; reason: ResolveFailure };

/**
 * The syntactic rules: absolute, no `..` segment, no NUL byte. Returns null when the path passes.
 * Security: `..` is refused outright rather than normalised, because `a/link/..` means the parent of the
 * link's *target* to the kernel but the parent of `link` to a string normaliser.
 */
export function syntaxProblem(path: string): ResolveFailure | null {
  if (path.includes('\0')) return 'nul';
  if (!path.startsWith('/')) return 'relative';
  if (path.split('/').includes('..')) return 'dot_dot';
  return null;
}

/** The path's segments without empty ones (`//`, trailing `/`) and `.`. */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Resolves `path` to its real location: realpath of the longest existing ancestor plus the remaining
 * segments, so a file that does not exist yet can be checked before it is written.
 *
 * Security: a symlink loop is refused (`loop`), and so is a dangling symlink on the way (`dangling`): its
 * target could be created later, anywhere, and a write would then follow it out of the roots.
 */
export function resolveReal(path: string): Resolved {
  const problem = syntaxProblem(path);
  if (problem) return { ok: false, reason: problem };
  const segs = segmentsOf(path);
  for (let i = segs.length; i >= 0; i--) {
    const candidate = '/' + segs.slice(0, i).join('/');
    let real: string;
    try {
      real = realpathSync.native(candidate);
    } catch (err) {
      const code = errnoOf(err);
      if (code === 'ELOOP') return { ok: false, reason: 'loop' };
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      // A name over 255 bytes (or a path over PATH_MAX) can never be created: say so, not "permission denied".
      if (code === 'ENAMETOOLONG') return { ok: false, reason: 'too_long' };
      // EACCES and friends: we cannot see where it leads, so we cannot vouch for it.
      return { ok: false, reason: 'unresolvable' };
    }
    if (i === segs.length) return { ok: true, real, exists: true };
    // The first missing segment must be truly absent; if lstat sees it, it is a link that leads nowhere.
    const next = join(real, segs[i]!);
    try {
      const st = lstatSync(next);
      return { ok: false, reason: st.isSymbolicLink() ? 'dangling' : 'unresolvable' };
    } catch (err) {
      const code = errnoOf(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { ok: false, reason: 'unresolvable' };
    }
    return { ok: true, real: join(real, ...segs.slice(i)), exists: false };
  }
  // Unreachable: "/" always resolves.
  return { ok: false, reason: 'unresolvable' };
}

/** True when `real` is `root` itself or below it. Both must be real paths; comparison is case-sensitive. */
export function isInside(real: string, root: string): boolean {
  if (real === root) return true;
  // Security: compare whole segments, so `/work/root-evil` is not inside `/work/root`.
  const prefix = root.endsWith('/') ? root : root + '/';
  return real.startsWith(prefix);
}
