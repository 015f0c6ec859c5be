/**
 * Temporaries a killed render left behind. A render's cleanup removes exactly the files it made, but a process
 * killed outright (SIGKILL, the OOM killer, a pipeline's timeout) runs no cleanup: its hidden temporaries
 * (`.NAME.<10 hex>.part`, tracker.ts) stay beside the outputs, a partial video of gigabytes among them, and no
 * later render would ever remove them, as their random names are never made again.
 *
 * A render reclaims those of its own outputs when it starts: a temporary is stale when no process holds it open.
 * A live render always holds each of its temporaries open from the moment it creates one until it is renamed or
 * removed (FileTracker.create keeps a descriptor for the encoder's file), so "held by nobody" means its render
 * is gone. On Linux that is read from /proc. A temporary is written by a process of the user who owns it, whose
 * descriptors that user (and root) can read; one owned by another user, or any where there is no /proc, counts
 * as stale only once untouched for a day. A temporary written to in the last minute is left whatever /proc says:
 * a folder shared over the network may have a live render on another machine writing it.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/** The FileTracker's temporary names: the final name, then ten hex digits (tempFor). */
const TEMP = /^\.(.+)\.[0-9a-f]{10}\.part$/;
const UNSEEN_STALE_MS = 24 * 60 * 60 * 1000;

/** A folder to sweep: read and changed through `base` (the render's handle on its output folder). */
export interface SweptDir {
  base: string;
}

/**
 * Removes the stale temporaries in `dir` whose final name `ours` accepts; returns the names removed.
 * Never throws: a sweep that cannot read or remove something leaves it.
 */
export async function reclaimStaleTemporaries(
  dir: SweptDir,
  ours: (finalName: string) => boolean,
): Promise<string[]> {
  const names = await fs.readdir(dir.base).catch(() => [] as string[]);
  const candidates = names.filter((n) => {
    const final = TEMP.exec(n)?.[1];
    return final !== undefined && ours(final);
  });
  if (!candidates.length) return [];
  const open = await openFiles();
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const name of candidates) {
    const stat = await fs.lstat(join(dir.base, name)).catch(() => null);
    if (!stat?.isFile() || open?.has(fileKey(stat))) continue;
    if (Date.now() - stat.mtimeMs < FRESH_MS) continue;
    const seen = open !== null && uid !== undefined && (uid === 0 || stat.uid === uid);
    if (!seen && Date.now() - stat.mtimeMs < UNSEEN_STALE_MS) continue;
    const gone = await fs.unlink(join(dir.base, name)).then(
      () => true,
      () => false,
    );
    if (gone) removed.push(name);
  }
  return removed;
}

/** A file's identity: the same file reached by two paths (a symbolic link, a bind mount) is one. */
const fileKey = (stat: { dev: number; ino: number }) => `${stat.dev}:${stat.ino}`;

/**
 * Every file held open by the processes on this machine whose descriptors we may read (/proc/<pid>/fd): ours,
 * and everyone's when root; by device and inode, not by path (a render writing through a symbolic link to this
 * folder holds the same file under another name). null without /proc.
 */
async function openFiles(): Promise<Set<string> | null> {
  const files = new Set<string>();
  const pids = await fs.readdir('/proc').catch(() => null);
  if (!pids) return null;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    // Ended meanwhile (holds nothing) or another user's (what it holds is owned by that user, above).
    const fds = await fs.readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    await Promise.all(
      fds.map((fd) =>
        // stat follows the descriptor's link to the file itself, wherever it was opened from.
        fs.stat(`/proc/${pid}/fd/${fd}`).then(
          (stat) => void files.add(fileKey(stat)),
          () => undefined,
        ),
      ),
    );
  }
  return files;
}

/** A temporary touched this recently is left: its writer may be on another machine sharing the folder. */
export const FRESH_MS = 60_000;
