/**
 * Golden frames: each fixture project in fixtures/golden is rendered at a few times and compared with its
 * reference PNG (tolerance in golden-compare.ts). Regenerate references with
 *   UPDATE_GOLDEN=1 npx vitest run test/integration/render/golden.test.ts
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProject } from '../../../src/engine/project-file.js';
import { createFrameRenderer, encodeStill } from '../../../src/render/index.js';
import { compareGolden } from './golden-compare.js';

const dir = fileURLToPath(new URL('../../../fixtures/golden/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';

/** Fixture -> times rendered (seconds). Transparent frames check straight alpha end to end. */
const CASES: { project: string; times: number[]; transparent?: boolean }[] = [
  { project: 'kinds', times: [0, 1.5] },
  { project: 'blend', times: [0] },
  { project: 'mattes', times: [0] },
  { project: 'mattes', times: [0], transparent: true },
  { project: 'effects', times: [0, 1] },
  { project: 'animation', times: [0, 0.5, 1.5, 2.2, 3.9] },
];

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
afterAll(() => renderer.dispose());

describe('golden frames', () => {
  for (const c of CASES) {
    for (const time of c.times) {
      const name = `${c.project}@${time}${c.transparent ? '-transparent' : ''}`;
      it(`${name} matches its reference`, async () => {
        const path = join(dir, `${c.project}.ecproj`);
        const doc = parseProject(await readFile(path, 'utf8'), path);
        const frame = await renderer.renderFrame(doc, doc.activeComp!, time, {
          transparent: c.transparent ?? false,
          missingFootage: 'fail',
        });
        expect(frame.warnings).toEqual([]);
        const png = await encodeStill(frame, 'png', { pngLevel: 1 });
        const ref = join(dir, `${name}.png`);
        if (update || !existsSync(ref)) {
          if (!update) expect.fail(`No reference ${ref}; run with UPDATE_GOLDEN=1 to create it.`);
          await writeFile(ref, await encodeStill(frame, 'png', { pngLevel: 9 }));
          return;
        }
        const result = await compareGolden(name, png, await readFile(ref));
        expect(result.ok, `${name}: ${result.detail} (see test-output/golden/)`).toBe(true);
      });
    }
  }
});
