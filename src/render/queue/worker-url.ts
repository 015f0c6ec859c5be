/**
 * Where the render queue's worker modules are: the shared helper (src/node-io/worker-url.ts) resolved against
 * this folder, so `./worker.js` is src/render/queue/worker.js (or its built copy when running from sources).
 */
import { builtModuleUrl as sharedBuiltModuleUrl } from '../../node-io/worker-url.js';

/** Maps a module beside this one (e.g. `./worker.js`) to a runnable JavaScript URL. */
export function builtModuleUrl(relativePath: string, distDir = process.env.EFFECTCRAFT_DIST): URL {
  return sharedBuiltModuleUrl(relativePath, import.meta.url, distDir);
}
