/**
 * Where the worker script is. Workers run compiled JavaScript, so when this module runs from the TypeScript
 * sources (vitest, tsx) the worker comes from the build: `src/x.ts` maps to `dist/x.js`, or to
 * `$EFFECTCRAFT_DIST/x.js` when set. Tests therefore need a build first (`npm test` builds before it runs).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { EngineError } from '../../engine/index.js';

/** Maps a module beside this one (e.g. `./worker.js`) to a runnable JavaScript URL. */
export function builtModuleUrl(relativePath: string, distDir = process.env.EFFECTCRAFT_DIST): URL {
  const here = new URL(relativePath, import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return here;
  const srcFile = fileURLToPath(here).replace(/\.js$/, '.ts');
  const srcRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  const repoRoot = resolve(srcRoot, '..');
  const dist = distDir ? (isAbsolute(distDir) ? distDir : join(repoRoot, distDir)) : join(repoRoot, 'dist');
  const built = join(dist, relative(srcRoot, srcFile)).replace(/\.ts$/, '.js');
  if (!existsSync(built)) {
    throw new EngineError(
      'missing_dependency',
      `The render worker is not built (${built} is missing).`,
      'Build first: npm run build (or set EFFECTCRAFT_DIST to a build directory).',
    );
  }
  return pathToFileURL(built);
}
