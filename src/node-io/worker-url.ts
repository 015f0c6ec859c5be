/**
 * Where a worker script is. Workers run compiled JavaScript, so when the caller runs from the TypeScript
 * sources (vitest, tsx) the worker comes from the build: `src/x.ts` maps to `dist/x.js`, or to
 * `$EFFECTCRAFT_DIST/x.js` when set. Tests therefore need a build first (`npm test` builds before it runs).
 * Shared by the render queue (its render workers) and scripting (the script worker).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { EngineError } from '../engine/errors.js';

/**
 * Maps a module beside the caller (e.g. `./worker.js`, resolved against `base`, the caller's `import.meta.url`)
 * to a runnable JavaScript URL.
 */
export function builtModuleUrl(
  relativePath: string,
  base: string | URL,
  distDir = process.env.EFFECTCRAFT_DIST,
): URL {
  const here = new URL(relativePath, base);
  if (!String(base).endsWith('.ts')) return here;
  const srcFile = fileURLToPath(here).replace(/\.js$/, '.ts');
  // This file is src/node-io/worker-url.ts, so `..` is the source root whatever folder the caller is in.
  const srcRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const repoRoot = resolve(srcRoot, '..');
  const dist = distDir ? (isAbsolute(distDir) ? distDir : join(repoRoot, distDir)) : join(repoRoot, 'dist');
  const built = join(dist, relative(srcRoot, srcFile)).replace(/\.ts$/, '.js');
  if (!existsSync(built)) {
    throw new EngineError(
      'missing_dependency',
      `A worker module is not built (${built} is missing).`,
      'Build first: npm run build (or set EFFECTCRAFT_DIST to a build directory).',
    );
  }
  return pathToFileURL(built);
}
