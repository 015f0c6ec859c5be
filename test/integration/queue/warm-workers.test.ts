// Render workers kept between renders (warm-workers.ts): a render that went well leaves its workers, stopped and
// holding nothing of it, for the next render, which then starts no thread; a stopped render's are terminated;
// kept workers end after their idle time. Every worker the code starts is recorded (a subclass of Worker).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { availableParallelism, getPriority } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type * as WorkerThreads from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endWarmWorkers, keepWarm, warmCount } from '../../../src/render/queue/warm-workers.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { createSession } from '../../../src/session.js';
import { repoRoot } from '../../helpers/cli.js';
import { hasFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip, numberedClipComp } from '../../helpers/media.js';
import { niceLoggingFfmpeg } from '../../helpers/nice-ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { renderTo } from '../audio/sound-helpers.js';

/** How many render workers the code under test has started. */
const started = vi.hoisted(() => ({ renderWorkers: 0 }));

vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof WorkerThreads>();
  class RecordingWorker extends actual.Worker {
    constructor(url: string | URL, options?: WorkerThreads.WorkerOptions) {
      if (decodeURIComponent(String(url)).includes('render/queue/worker')) started.renderWorkers++;
      super(url, options);
    }
  }
  return { ...actual, Worker: RecordingWorker };
});

afterEach(() => endWarmWorkers());

// Thread priorities are Linux's (elsewhere the workers keep theirs).
const itOnLinuxWithFfmpeg = it.skipIf(!hasFfmpeg || process.platform !== 'linux');

/** The pids of this process's children (every thread's: a decoder is started by a worker thread). */
function childPids(): number[] {
  return readdirSync('/proc/self/task')
    .flatMap((tid) => {
      try {
        return readFileSync(`/proc/self/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      } catch {
        return [];
      }
    })
    .map(Number);
}

/** A worker that only waits for messages (a kept render worker, as far as the process can tell). */
const IDLE_WORKER = 'require("node:worker_threads").parentPort.on("message", () => {})';
const idleWorker = () => new Worker(IDLE_WORKER, { eval: true });
const exec = promisify(execFile);

async function pixel(path: string): Promise<number[]> {
  const { data } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}

describe('render workers kept between renders', () => {
  it('a second render starts no worker, and draws the document as it is now', async () => {
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 1 } });
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', { width: 16, height: 16, duration: 0.2 });
    const { id: solid } = await run<{ id: string }>(s, 'layer.addSolid', { comp, color: '#ff0000' });
    started.renderWorkers = 0;

    expect((await renderTo(s, comp, join(dir, 'a', 'f_[#].png'))).completed).toBe(1);
    expect(started.renderWorkers).toBe(1);
    expect(warmCount()).toBe(1);
    expect(await pixel(join(dir, 'a', 'f_0.png'))).toEqual([255, 0, 0]);

    await run(s, 'property.set', { layer: solid, property: 'solid.color', value: '#0000ff' });
    expect((await renderTo(s, comp, join(dir, 'b', 'f_[#].png'))).completed).toBe(1);
    expect(started.renderWorkers).toBe(1);
    expect(await pixel(join(dir, 'b', 'f_0.png'))).toEqual([0, 0, 255]);
    // Another session's render takes it too: a worker holds nothing of a render once it has ended.
    const other = createSession({ renderQueue: { maxWorkers: 1 } });
    const { id: green } = await run<{ id: string }>(other, 'comp.new', {
      width: 8,
      height: 8,
      duration: 0.1,
    });
    await run(other, 'layer.addSolid', { comp: green, color: '#00ff00' });
    expect((await renderTo(other, green, join(dir, 'c', 'f_[#].png'))).completed).toBe(1);
    expect(started.renderWorkers).toBe(1);
    expect(await pixel(join(dir, 'c', 'f_0.png'))).toEqual([0, 255, 0]);
  });

  itWithFfmpeg(
    'a kept worker has ended its decoders; the next footage render reads the clip afresh',
    async () => {
      const dir = await tempDir();
      const s = createSession({ renderQueue: { maxWorkers: 1 } });
      const { comp } = await numberedClipComp(s, await numberedClip(dir, 'h264', '24', 24));
      const before = childPids();
      started.renderWorkers = 0;
      expect((await renderTo(s, comp, join(dir, 'a.mp4'))).completed).toBe(1);
      expect(warmCount()).toBe(1);
      // The encoder and the clip's decoder are gone (reaped), though the worker that started the decoder lives on.
      expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
      expect((await renderTo(s, comp, join(dir, 'b.mp4'))).completed).toBe(1);
      expect(started.renderWorkers).toBe(1);
      expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
    },
  );

  itOnLinuxWithFfmpeg(
    "workers started ahead serve a video at its lower priority; lowered, they do not serve a render at the session's",
    async () => {
      const dir = await tempDir();
      const ffmpeg = await niceLoggingFfmpeg(dir);
      const s = createSession({ renderQueue: { findFfmpeg: async () => ffmpeg.path } });
      const { comp } = await numberedClipComp(s, await numberedClip(dir, 'h264', '24', 24));
      const base = getPriority();
      started.renderWorkers = 0;
      s.renderQueue.prestartWorkers();
      const ahead = started.renderWorkers;
      expect(ahead).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
      expect(warmCount()).toBe(ahead);

      expect((await renderTo(s, comp, join(dir, 'out.mp4'))).completed).toBe(1);
      expect(started.renderWorkers).toBe(ahead);
      const decoders = (await ffmpeg.runs()).filter((r) => r.role === 'decoder');
      expect(decoders.length).toBeGreaterThan(0);
      expect(decoders.every((r) => r.nice === Math.min(19, base + 10))).toBe(true);

      await writeFile(join(dir, 'nice.log'), '');
      expect((await renderTo(s, comp, join(dir, 'png', 'f_[#].png'))).completed).toBe(1);
      expect(started.renderWorkers).toBeGreaterThan(ahead);
      const stills = (await ffmpeg.runs()).filter((r) => r.role === 'decoder');
      expect(stills.length).toBeGreaterThan(0);
      expect(stills.every((r) => r.nice === base)).toBe(true);
    },
  );

  it('a stopped render keeps none of its workers', async () => {
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 1 } });
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      width: 256,
      height: 256,
      duration: 20,
      frameRate: 30,
    });
    await run(s, 'layer.addText', { comp, text: 'stop me' });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[#].png') });
    const off = s.renderQueue.onProgress((p) => {
      if (p.framesDone >= 5) s.renderQueue.stop();
    });
    started.renderWorkers = 0;
    const r = await run<JobResult>(s, 'renderQueue.render');
    off();
    expect(r.items[0]!.status).toBe('stopped');
    expect(started.renderWorkers).toBe(1);
    expect(warmCount()).toBe(0);
    // The next render starts its own.
    await run(s, 'renderQueue.clear');
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'g_[#].png'),
      frameRange: { start: 0, end: 1 },
    });
    expect((await run<JobResult>(s, 'renderQueue.render')).completed).toBe(1);
    expect(started.renderWorkers).toBe(2);
  });

  it('a kept worker ends after its idle time', async () => {
    const worker = idleWorker();
    await new Promise((resolve) => worker.once('online', resolve));
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    keepWarm('test-key', worker, 0, 100);
    expect(warmCount()).toBe(1);
    await exited;
    expect(warmCount()).toBe(0);
  });

  it('a process whose only work left is a kept worker exits', async () => {
    // Kept for ten minutes: the process must end long before, as a CLI render does once its output is written.
    const probe = [
      "import { Worker } from 'node:worker_threads';",
      `import { keepWarm } from ${JSON.stringify(join(repoRoot, 'src/render/queue/warm-workers.ts'))};`,
      `const worker = new Worker(${JSON.stringify(IDLE_WORKER)}, { eval: true });`,
      "worker.once('online', () => { keepWarm('k', worker, 0, 600000); console.log('kept'); });",
    ].join('\n');
    const file = join(await tempDir(), 'probe.mts');
    await writeFile(file, probe);
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', file], {
      cwd: repoRoot,
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe('kept');
  });
});
