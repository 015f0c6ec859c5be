/**
 * Renders never write into an installed package. The sample project ships inside the npm package and stores
 * its output relative to itself (`out/`), so rendering it as installed would put frames in
 * node_modules/effectcraft-cli/fixtures/sample/out: files a reinstall deletes, in a folder other projects may
 * share, and possibly read-only (a global install). The render is refused instead, naming the way out.
 */
import { sep } from 'node:path';
import { EngineError, type RenderQueueItem } from '../../engine/index.js';

/** true when `path` (absolute) lies inside a `node_modules` folder. */
export function insideInstalledPackage(path: string): boolean {
  return path.split(sep).includes('node_modules');
}

/** Throws bad_argument naming the first item whose output or overflow folder is inside node_modules. */
export function refuseInstalledPackageOutputs(items: readonly RenderQueueItem[]): void {
  for (const item of items) {
    const path = [item.output, ...item.overflow.map((o) => o.dir)].find(insideInstalledPackage);
    if (path === undefined) continue;
    throw new EngineError(
      'bad_argument',
      `Render queue item "${item.id}" would write into an installed package (${path}): a reinstall deletes files there.`,
      (words) =>
        `Render into a folder of your own, outside node_modules: ${words.newOutput}, or save the project elsewhere and give its items such outputs.`,
    );
  }
}
