/**
 * Regenerates fixtures/golden/*.ecproj (and assets/checker.png) from scenes.ts:
 *   npx tsx test/integration/render/build-golden-fixtures.ts
 * then refresh the reference PNGs with UPDATE_GOLDEN=1 (see docs/rendering.md).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializeProject } from '../../../src/engine/project-file.js';
import type { Project } from '../../../src/engine/index.js';
import { makeChecker } from './make-assets.js';
import { animationScene, blendScene, effectsScene, kindsScene, mattesScene, type Scene } from './scenes.js';

const dir = fileURLToPath(new URL('../../../fixtures/golden/', import.meta.url));

/** Footage paths are stored relative to the project file so the fixtures work from any checkout. */
function portable(doc: Project): Project {
  const copy = structuredClone(doc) as Project;
  for (const item of copy.items) if (item.type === 'footage') item.path = relative(dir, item.path);
  return copy;
}

async function main(): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  const checker = join(dir, 'assets', 'checker.png');
  await makeChecker(checker);
  const scenes: [string, Scene][] = [
    ['kinds', await kindsScene(checker)],
    ['blend', await blendScene()],
    ['mattes', await mattesScene()],
    ['effects', await effectsScene()],
    ['animation', await animationScene()],
  ];
  for (const [name, scene] of scenes) {
    await writeFile(join(dir, `${name}.ecproj`), serializeProject(portable(scene.doc)));
  }
}

await main();
