/**
 * The one atomic file write: a temporary beside the target, written and fsynced, renamed over the target, then
 * the folder fsynced, so readers see the old file or the new one, never half of one, and a crash right after
 * keeps the new one. The temporary is removed when any step fails. Project saves and frame files (engine
 * ports), confined writes (through a verified folder descriptor, src/confinement/safe-io.ts) and the bridge's
 * token file all write through here.
 */
import { constants, promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** The folder a write goes into, and how it is reached. */
export interface AtomicWriteDir {
  /** Path through which names in the folder are opened and renamed (the folder, or /proc/self/fd/N). */
  readonly base: string;
  /** Runs right before the rename; throwing stops the write (the temporary is removed). */
  verify?(): Promise<void>;
  /** fsyncs the folder, so the rename itself survives a crash; never throws. */
  sync(): Promise<void>;
}

export interface AtomicWriteOptions {
  /** Permission bits of the new file (default 0o644, less the umask unless `exactMode`). */
  mode?: number;
  /**
   * Sets exactly `mode` on the temporary before any byte is written, whatever the umask or a default ACL on the
   * folder made of it: for secrets, which must never be readable by others, not even for an instant.
   */
  exactMode?: boolean;
}

/** Security: O_EXCL|O_NOFOLLOW, so the temporary is always a new file of ours, never something a link points at. */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Writes `data` as `name` in `dir` atomically. Errors are the raw fs errors; callers map them to their codes. */
export async function writeAtomicIn(
  dir: AtomicWriteDir,
  name: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o644;
  const tmp = join(dir.base, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  let created = false;
  try {
    const handle = await fs.open(tmp, CREATE_NEW, mode);
    created = true;
    try {
      if (options.exactMode) await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
    await handle.close();
    await dir.verify?.();
    await fs.rename(tmp, join(dir.base, name));
    created = false;
  } catch (err) {
    if (created) await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  await dir.sync();
}

/** Writes `data` to `path` atomically, reaching its folder by path (no confinement). */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options?: AtomicWriteOptions,
): Promise<void> {
  const dir = dirname(path);
  return writeAtomicIn({ base: dir, sync: () => syncDir(dir) }, basename(path), data, options);
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, constants.O_RDONLY).catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close().catch(() => undefined);
}
