// Cold still: wall time of `effectcraft-cli still` rendering frame 0 of the sample, each run a new process
// (start-up, module loading, one frame, PNG, atomic write). Target: median <= 0.4 s. The baseline in the same
// conditions is `effectcraft-cli --version`: node's own start-up plus the CLI's dispatch.
// Usage: node bench/cli-still.mjs [RUNS]   (needs a build: npm run build)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Against the built dist (EFFECTCRAFT_DIST=.dist-x to use another build directory).
const cli = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist', 'cli.js');
const project = join(root, 'fixtures/sample/sample.ecproj');
const runs = Number(process.argv[2] ?? 15);
const out = mkdtempSync(join(tmpdir(), 'ec-still-bench-'));

/** Wall milliseconds of each of `runs` spawns of the CLI with `args` (after one unmeasured warm-up run). */
function time(args) {
  const samples = [];
  for (let i = -1; i < runs; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`effectcraft-cli ${args.join(' ')} failed: ${r.stderr}`);
    if (i >= 0) samples.push(ms);
  }
  return samples;
}

try {
  const still = time(['still', project, '--comp', 'Sample', '--frame', '0', '-o', join(out, 'frame0.png')]);
  const version = time(['--version']);
  const s = (ms) => `${(ms / 1000).toFixed(3)} s`;
  console.log(
    `still, frame 0 of the sample (${runs} cold runs): median ${s(median(still))}, p90 ${s(percentile(still, 90))}  (target <= 0.400 s)`,
  );
  console.log(`baseline --version (${runs} cold runs):           median ${s(median(version))}`);
  console.log(`still minus baseline: ${s(median(still) - median(version))}`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
