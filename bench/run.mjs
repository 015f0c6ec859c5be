// Runs every benchmark in this folder, one after another, each in its own process (fresh heap, fair RSS).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const skip = new Set(['run.mjs', 'stats.mjs']);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && !skip.has(f) && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ['--expose-gc', f], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
