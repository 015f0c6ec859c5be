// Small helpers shared by the benchmarks: medians and percentiles of per-iteration samples, and the resident
// memory of a whole process tree.
import { readdirSync, readFileSync } from 'node:fs';

export function median(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(samples, p) {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Times `fn` `n` times (after `warmup` runs) and returns per-run milliseconds. */
export async function sample(fn, n, warmup = Math.min(10, n)) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

export const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);

/**
 * Resident memory of this process and all its descendants (ffmpeg children included), in bytes. Walks the tree
 * through /proc/<pid>/task/<tid>/children: a scan of every process in /proc cost ~1.8 ms a sample on the 2-core
 * machine (7% of a core at 40 samples a second, on the timed render's main thread); the walk reads a few files.
 */
export function treeRss(root = process.pid) {
  let total = 0;
  for (const pid of processTree(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      total += Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[21]) * 4096;
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}

/** `root` and every process below it (pids), through /proc/<pid>/task/<tid>/children. */
export function processTree(root = process.pid) {
  const all = [];
  const pending = [root];
  while (pending.length) {
    const pid = pending.pop();
    all.push(pid);
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(' ').map(Number));
      }
    } catch {
      /* gone meanwhile */
    }
  }
  return all;
}

/** The command lines (arguments joined by spaces) of this process's descendants. */
export function descendantCommands(root = process.pid) {
  return processTree(root)
    .filter((pid) => pid !== root)
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()];
      } catch {
        return [];
      }
    });
}
