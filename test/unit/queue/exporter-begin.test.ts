// An exporter's `begin`: the work it needs no frame for (a video's sound mix), run while the workers start.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, listDir, queueSession, run } from '../../helpers/queue.js';
import { EngineError } from '../../../src/engine/index.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import type { Exporter, ExporterContext } from '../../../src/render/queue/exporters/types.js';

/** A PNG-sequence exporter that logs what the job calls, with `begin` doing what `onBegin` says. */
function loggingExporter(
  dir: string,
  log: string[],
  onBegin: (ctx: ExporterContext) => Promise<void>,
  prepare: () => Promise<ReadonlySet<number> | 'all'> = async () => new Set<number>(),
): (ctx: ExporterContext) => Exporter {
  return (ctx) => ({
    payload: { kind: 'png', level: 1 },
    ordered: true,
    prepare: async () => {
      log.push('prepare');
      return prepare();
    },
    begin: async () => {
      log.push('begin');
      await onBegin(ctx);
      log.push('begun');
    },
    async writeFrame(frame, data) {
      log.push(`write ${frame}`);
      await ctx.tracker.writeFile(join(dir, `f_${frame}.png`), data);
    },
    finish: async () => {
      log.push('finish');
      return [];
    },
    abort: async () => void log.push('abort'),
  });
}

/** Renders a 3-frame item through the logging exporter: its result, the log, and the output folder. */
async function renderLogged(
  onBegin: (ctx: ExporterContext, dir: string) => Promise<void>,
  prepare?: () => Promise<ReadonlySet<number> | 'all'>,
): Promise<{ item: JobResult['items'][number]; log: string[]; dir: string; running: boolean }> {
  const dir = await tempDir();
  const s = queueSession();
  const log: string[] = [];
  s.renderQueue.registerExporter(
    'png',
    loggingExporter(dir, log, (ctx) => onBegin(ctx, dir), prepare),
  );
  const comp = await addComp(s, { name: 'b', duration: 0.3 });
  await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[#].png') });
  const r = await run<JobResult>(s, 'renderQueue.render', {});
  return { item: r.items[0]!, log, dir, running: s.renderQueue.running };
}

describe('Exporter.begin', () => {
  it('is called once, after prepare, and settles before the first frame is written', async () => {
    // Slower than the workers' start: the first frame still waits for it.
    const { item, log } = await renderLogged(() => new Promise((r) => setTimeout(r, 300)));
    expect(item.status).toBe('done');
    expect(log).toEqual(['prepare', 'begin', 'begun', 'write 0', 'write 1', 'write 2', 'finish']);
  });

  it('a failing begin fails the item with its error, and removes the files it made', async () => {
    const { item, log, dir, running } = await renderLogged(async (ctx, dir) => {
      await ctx.tracker.create(join(dir, 'sound.wav'));
      expect(await listDir(dir)).toHaveLength(1);
      throw new EngineError('io_error', 'The mix could not be written.', 'Free some space.');
    });
    expect(item).toMatchObject({
      status: 'failed',
      error: { code: 'io_error', message: 'The mix could not be written.' },
    });
    expect(log).toEqual(['prepare', 'begin', 'abort']);
    expect(await listDir(dir)).toEqual([]);
    // The workers started alongside were stopped with the item: the queue is free to render again.
    expect(running).toBe(false);
  });

  it('a stop while it runs aborts the exporter, which ends it: the item stops at once', async () => {
    const dir = await tempDir();
    const s = queueSession();
    const log: string[] = [];
    let aborted: () => void = () => undefined;
    // Made up front: an abort that comes between the file's creation and the wait below still ends the wait.
    const killed = new Promise<void>((_, reject) => (aborted = () => reject(new Error('mix killed'))));
    killed.catch(() => undefined);
    // A begin that only ends when the exporter is aborted (a long sound mix, killed).
    const factory = loggingExporter(dir, log, async (ctx) => {
      await ctx.tracker.create(join(dir, 'sound.wav'));
      await killed;
    });
    s.renderQueue.registerExporter('png', (ctx) => {
      const exporter = factory(ctx);
      return { ...exporter, abort: () => (aborted(), exporter.abort()) };
    });
    const comp = await addComp(s, { name: 'b', duration: 0.3 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[#].png') });
    const job = run<JobResult>(s, 'renderQueue.render', {});
    while (!log.includes('begin') || !(await listDir(dir)).length)
      await new Promise((r) => setTimeout(r, 10));
    await run(s, 'renderQueue.stop');
    const r = await job;
    expect(r.items[0]!.status).toBe('stopped');
    expect(log.filter((l) => l.startsWith('write'))).toEqual([]);
    expect(await listDir(dir)).toEqual([]);
  });

  it('is not called for an item with nothing to render', async () => {
    const { item, log } = await renderLogged(
      async () => undefined,
      async () => 'all',
    );
    expect(item.status).toBe('done');
    expect(log).toEqual(['prepare', 'finish']);
  });
});
