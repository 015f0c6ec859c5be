/**
 * Lowering the priority of the calling thread alone. On Linux a nice value belongs to each thread, and a child
 * process started from a thread begins with that thread's: lowering a render worker lowers the decoders it
 * starts too, and nothing else of the process.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The highest nice value (the lowest priority) Linux has. */
const LOWEST = 19;

/**
 * Raises the calling thread's nice value by `by` (at most to 19). Left as it is where that cannot be done (not
 * Linux, `by` not positive, not permitted): the thread then runs as before. Lowering one's own priority needs no
 * privilege.
 */
export function lowerThisThread(by: number): void {
  if (process.platform !== 'linux' || !(by > 0)) return;
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>"; setpriority(2) with a thread id acts on that thread.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return;
    setPriority(tid, Math.min(LOWEST, getPriority(tid) + by));
  } catch {
    // Not permitted: the thread keeps its priority.
  }
}
