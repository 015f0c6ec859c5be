/**
 * A real small filesystem for disk-full tests: a tmpfs mounted on a temp dir (needs root, as in CI).
 * Returns null where mounting is not permitted, so the caller can skip with a reason.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  unmount(): Promise<void>;
}

export async function mountTmpfs(size: string): Promise<Tmpfs | null> {
  const dir = await mkdtemp(join(tmpdir(), 'ec-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    await rm(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    async unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'ignore' });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

export const canMount = process.getuid?.() === 0;
