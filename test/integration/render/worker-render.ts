/** Worker entry for worker-threads.test.ts: renders the frame it is sent and posts the pixels back. */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { Project } from '../../../src/engine/index.js';
import { createFrameRenderer } from '../../../src/render/index.js';

const renderer = createFrameRenderer({ readFile: (p) => readFile(p) });
parentPort!.on('message', async (msg: { doc: Project; comp: string; time: number }) => {
  try {
    const f = await renderer.renderFrame(msg.doc, msg.comp, msg.time, { missingFootage: 'fail' });
    parentPort!.postMessage({ ok: true, width: f.width, height: f.height, rgba: f.rgba });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: String(err) });
  }
});
