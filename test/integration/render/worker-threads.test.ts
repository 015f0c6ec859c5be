/** The renderer works inside worker threads (fonts registered per thread) and gives the same pixels. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { parseProject } from '../../../src/engine/project-file.js';
import { createFrameRenderer } from '../../../src/render/index.js';

const fixture = fileURLToPath(new URL('../../../fixtures/golden/kinds.ecproj', import.meta.url));
const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
});

function renderIn(worker: Worker, msg: unknown): Promise<{ ok: boolean; rgba: Uint8Array; error?: string }> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(msg);
  });
}

describe('renderer in worker threads', () => {
  it('two workers render the same bytes as the main thread', async () => {
    const doc = parseProject(await readFile(fixture, 'utf8'), fixture);
    const main = await createFrameRenderer({ readFile: (p) => readFile(p) }).renderFrame(
      doc,
      doc.activeComp!,
      1,
      {
        missingFootage: 'fail',
      },
    );
    const entry = join(fileURLToPath(new URL('.', import.meta.url)), 'worker-boot.mjs');
    for (let i = 0; i < 2; i++) workers.push(new Worker(entry));
    const results = await Promise.all(
      workers.map((w) => renderIn(w, { doc, comp: doc.activeComp, time: 1 })),
    );
    for (const r of results) {
      expect(r.error).toBeUndefined();
      expect(Buffer.from(r.rgba).equals(main.rgba)).toBe(true);
    }
  }, 30_000);
});
