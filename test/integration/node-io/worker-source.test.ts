/**
 * Tests run the code they test, worker threads included: code running from the TypeScript sources starts its
 * workers from the .ts sources (through tsx), never from a build in dist/ that may be older than the sources.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as WorkerThreads from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { Worker } from 'node:worker_threads';
import { workerEntryUrl } from '../../../src/node-io/worker-url.js';
import { createSession } from '../../../src/session.js';
import { repoRoot } from '../../helpers/cli.js';
import { newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

/** Every worker the code under test starts: what it runs, and the renderer module a render worker loads. */
const started = vi.hoisted(() => [] as Array<{ entry: string; rendererModule?: string }>);

vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof WorkerThreads>();
  class RecordingWorker extends actual.Worker {
    constructor(url: string | URL, options?: WorkerThreads.WorkerOptions) {
      const data = options?.workerData as { rendererModule?: string } | undefined;
      started.push({ entry: decodeURIComponent(String(url)), rendererModule: data?.rendererModule });
      super(url, options);
    }
  }
  return { ...actual, Worker: RecordingWorker };
});

const src = pathToFileURL(join(repoRoot, 'src')).href + '/';
const dist = pathToFileURL(join(repoRoot, 'dist')).href + '/';

describe('worker threads started from the sources', () => {
  it('run the script worker from src/node-io/script-worker.ts', async () => {
    started.length = 0;
    const engine = newEngine();
    const out = await run<{ result: unknown }>(engine, 'script.run', { code: 'return 6 * 7' });
    expect(out.result).toBe(42);
    expect(started).toHaveLength(1);
    expect(started[0]!.entry).toContain(`await import("${src}node-io/script-worker.ts")`);
    expect(started[0]!.entry).not.toContain(dist);
  });

  it('run the render workers from src/render/queue/worker.ts with the compositor from src/render/index.ts', async () => {
    started.length = 0;
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 1 } });
    const comp = await run<{ id: string }>(s.engine, 'comp.new', { width: 16, height: 16, duration: 0.1 });
    await run(s.engine, 'renderQueue.add', { comp: comp.id, output: join(dir, 'f_[#].png') });
    const r = await run<{ completed: number }>(s.engine, 'renderQueue.render', {});
    expect(r.completed).toBe(1);
    expect(started.length).toBeGreaterThan(0);
    for (const w of started) {
      expect(w.entry).toContain(`await import("${src}render/queue/worker.ts")`);
      expect(w.rendererModule).toBe(`${src}render/index.ts`);
    }
  });

  it('run the source even when a different (stale) build sits in dist/', async () => {
    // A tree shaped like ours: src/ holds the current worker, dist/ a build that behaves differently.
    const root = await tempDir();
    await mkdir(join(root, 'src'));
    await mkdir(join(root, 'dist'));
    await writeFile(join(root, 'package.json'), '{ "type": "module" }\n');
    const imports = "import { parentPort } from 'node:worker_threads';\n";
    await writeFile(
      join(root, 'src', 'echo.ts'),
      `${imports}const says: string = 'current source';\nparentPort!.postMessage(says);\n`,
    );
    await writeFile(join(root, 'dist', 'echo.js'), `${imports}parentPort.postMessage('stale build');\n`);
    const answer = async (caller: string) => {
      const w = new Worker(workerEntryUrl('./echo.js', pathToFileURL(join(root, caller))));
      try {
        return await new Promise((resolve, reject) => {
          w.once('message', resolve);
          w.once('error', reject);
        });
      } finally {
        await w.terminate();
      }
    };
    expect(await answer('src/caller.ts')).toBe('current source');
    // Built code keeps starting the JavaScript beside it.
    expect(await answer('dist/caller.js')).toBe('stale build');
  });
});
