/** The session takes what the CLI reads from the environment as options: ffmpeg is looked for on `searchPath`. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../src/render/queue/service.js';
import { createSession } from '../../src/session.js';
import { colorRendererUrl, addComp, run } from '../helpers/queue.js';
import { tempDir } from '../helpers/tmp.js';

describe('createSession', () => {
  it('looks for ffmpeg on the searchPath it is given, not on the process environment', async () => {
    const dir = await tempDir();
    const empty = await tempDir();
    const s = createSession({
      searchPath: empty,
      renderQueue: { rendererModule: colorRendererUrl, maxWorkers: 1 },
    });
    const comp = await addComp(s, { name: 'c' });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'v.mp4') });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.items[0]!.error!.code).toBe('missing_dependency');
  });
});
