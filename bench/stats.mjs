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

/** Resident memory of this process and all its descendants (ffmpeg children included), in bytes. */
export function treeRss(root = process.pid) {
  const parent = new Map();
  const rss = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      rss.set(Number(name), Number(fields[21]) * 4096);
    } catch {
      /* gone meanwhile */
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) {
      if (p === root) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}
