/**
 * `Confinement.openWriteDir`: checks an output directory once, creates what is missing of it without
 * following links, and hands back a descriptor-backed handle (`CheckedDir`) for every later create and
 * rename, so a directory swapped for a symlink after the check cannot redirect a write.
 */
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { EngineError } from '../engine/index.js';
import { CheckedDir, DEFAULT_IO, type SafeIoOptions } from './checked-dir.js';
import { unusablePath } from './errors.js';
import { resolveReal } from './path-resolve.js';
import type { Policy } from './policy.js';
import type { WriteDir } from './types.js';

/** The nearest ancestor of `real` (itself included) that exists. */
async function existingPrefix(real: string): Promise<string> {
  for (let p = real; ; p = dirname(p)) {
    const found = await fs.lstat(p).then(
      () => true,
      () => false,
    );
    if (found || dirname(p) === p) return p;
  }
}

/**
 * Opens `dir` for writing under `policy`. Confined: it must resolve inside a write root, and stays verified
 * against the write roots; not confined: only the link checks apply.
 */
export async function openWriteDir(
  policy: Policy,
  dir: string,
  param: string,
  io: SafeIoOptions = DEFAULT_IO,
): Promise<WriteDir> {
  let real: string;
  if (policy.confined) {
    const r = policy.check(dir, 'write', param);
    if (!r.ok) throw new EngineError(r.error.code, r.error.message, r.error.remediation);
    real = r.real;
  } else {
    const r = resolveReal(dir);
    if (!r.ok) {
      const e = unusablePath(param, dir, r.reason);
      throw new EngineError(e.code, e.message, e.remediation);
    }
    real = r.real;
  }
  const inside = policy.confined ? (p: string) => policy.writable(p) : () => true;
  return CheckedDir.openCreating(real, await existingPrefix(real), { inside, shownPath: dir, param, io });
}
