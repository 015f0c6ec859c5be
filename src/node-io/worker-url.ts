/**
 * Where a worker thread's code comes from. Built code (dist/) starts its workers from the JavaScript beside
 * it. Code running from the TypeScript sources (vitest, tsx) starts them from the .ts sources beside it,
 * compiled on the fly by tsx, so a test always runs the code it tests: a worker taken from dist/ would run
 * whatever was built last, and an edited worker would be tested stale.
 * Shared by the render queue (its render workers and their renderer) and scripting (the script worker).
 */
import { EngineError } from '../engine/errors.js';

/**
 * The module `relativePath` beside `base` (the caller's `import.meta.url`), in the caller's own form: written
 * as imports are (`./worker.js`), it is that .js file for built code and the .ts source when the caller runs
 * from sources. For modules a worker imports (the renderer); a worker's entry needs {@link workerEntryUrl}.
 */
export function siblingModuleUrl(relativePath: string, base: string | URL): URL {
  const url = new URL(relativePath, base);
  return runsFromSources(base) ? new URL(url.href.replace(/\.js$/, '.ts')) : url;
}

/**
 * The URL to give `new Worker()` for the module `relativePath` beside `base`. From sources this is a small
 * ES module that registers tsx in the new thread, then imports the .ts source: Node 20 applies neither
 * `execArgv: ['--import', 'tsx']` nor the parent thread's loader to a worker's entry module (both end in
 * "Unknown file extension .ts"), while tsx registered inside the worker loads the entry and all it imports.
 */
export function workerEntryUrl(relativePath: string, base: string | URL): URL {
  const entry = siblingModuleUrl(relativePath, base);
  if (!runsFromSources(base)) return entry;
  const boot = [
    `import { register } from ${JSON.stringify(tsxApiUrl())};`,
    'register();',
    `await import(${JSON.stringify(entry.href)});`,
  ].join('\n');
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

function runsFromSources(base: string | URL): boolean {
  return String(base).endsWith('.ts');
}

function tsxApiUrl(): string {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    throw new EngineError(
      'missing_dependency',
      'EffectCraft runs from its TypeScript sources here, and its worker threads need tsx to load them, which is not installed.',
      'Install the development dependencies (npm ci), or build and run the built CLI (npm run build; node dist/cli.js).',
    );
  }
}
