/**
 * Global setup of the e2e tier: its tests spawn the built CLI (dist/cli.js), so a build older than the sources
 * would test stale code while looking green. Refuse to run then, loudly, naming the file that changed.
 * `npm run test:e2e` and `npm test` build first.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { distDir, repoRoot } from '../helpers/cli.js';

/** [path, mtime] of every file below `dir` whose name passes `keep`. */
async function files(dir: string, keep: (name: string) => boolean): Promise<Array<[string, number]>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const kept = entries.filter((e) => e.isFile() && keep(e.name)).map((e) => join(e.parentPath, e.name));
  return Promise.all(kept.map(async (p): Promise<[string, number]> => [p, (await stat(p)).mtimeMs]));
}

export default async function checkBuildIsFresh(): Promise<void> {
  const rebuild = 'Build first: npm run build (npm run test:e2e builds for you).';
  const built = await files(distDir, (n) => n.endsWith('.js')).catch(() => []);
  if (!built.some(([p]) => p === join(distDir, 'cli.js'))) {
    throw new Error(
      `e2e tests spawn ${relative(repoRoot, join(distDir, 'cli.js'))}, which is missing. ${rebuild}`,
    );
  }
  const oldestBuild = Math.min(...built.map(([, t]) => t));
  // The studio page's sources (TSX, CSS, HTML) count too: Vite builds them into dist/studio/page.
  const sources = await files(join(repoRoot, 'src'), (n) => /\.(ts|tsx|css|html)$/.test(n));
  const newer = sources.filter(([, t]) => t > oldestBuild).map(([p]) => relative(repoRoot, p));
  if (newer.length) {
    throw new Error(
      `The build in ${relative(repoRoot, distDir)}/ is older than the sources (${newer.slice(0, 3).join(', ')}` +
        `${newer.length > 3 ? ` and ${newer.length - 3} more` : ''} changed since): e2e tests would run stale code. ${rebuild}`,
    );
  }
}
