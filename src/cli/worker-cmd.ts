/**
 * `effectcraft-cli worker --redis URL`: a render worker for distributed renders, until a signal stops it. On
 * Ctrl-C or SIGTERM the chunk in hand is stopped (its files removed) and put back on the queue for another
 * worker, then the worker exits.
 */
import { hostname } from 'node:os';
import type { ErrorInfo } from '../engine/index.js';
import { EngineError } from '../engine/index.js';
import { createNodePorts } from '../node-io/engine-ports.js';
import { assertRedisReachable, redisOptions } from '../render/distributed/connection.js';
import { startRenderWorker } from '../render/distributed/worker.js';
import { findFfmpeg } from '../render/queue/exporters/ffmpeg.js';
import { CLI_WORDS } from './cli-words.js';
import { parseOrHelp } from './flag-spec.js';
import { workerSpec } from './specs/worker.js';
import { EXIT, failureText, parseMs, parseWhole, printable, UsageError } from './usage.js';
import { packageVersion } from './version.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function log(message: string): void {
  process.stderr.write(`${printable(message)}\n`);
}

function fail(error: ErrorInfo): number {
  process.stderr.write(`effectcraft-cli worker: ${failureText(error)}`);
  return error.code === 'bad_argument' ? EXIT.usage : EXIT.failed;
}

export async function workerCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(workerSpec, argv);
  if (!parsed) return EXIT.ok;
  const { values } = parsed;
  const url = values.redis;
  if (url === undefined) throw new UsageError('--redis URL is required.');
  const concurrency = parseWhole(values.concurrency, '--concurrency', 1, 256);
  const lockDuration = parseMs(values['lock-ms'], '--lock-ms');
  const stalledInterval = parseMs(values['stalled-ms'], '--stalled-ms');
  try {
    redisOptions(url);
    await assertRedisReachable(url);
  } catch (err) {
    if (err instanceof EngineError) return fail(err.toInfo(CLI_WORDS));
    throw err;
  }
  const searchPath = process.env.PATH;
  const version = values['as-version'] ?? packageVersion();
  const name = values.name ?? `${hostname()}:${process.pid}`;
  const worker = await startRenderWorker({
    url,
    version,
    ports: createNodePorts({ searchPath }),
    findFfmpeg: () => findFfmpeg(searchPath),
    log,
    name,
    ...(values['fail-first-chunk'] && { failFirstChunk: true }),
    ...(concurrency && { maxWorkers: concurrency }),
    ...(lockDuration && { lockDuration }),
    ...(stalledInterval && { stalledInterval }),
  });
  log(`effectcraft-cli worker ${version}: waiting for render jobs on ${url} as ${name}`);
  // Said at once, not at the first video chunk: such a worker fails (and hands back) every chunk that needs it.
  if (!(await findFfmpeg(searchPath)))
    log(
      'worker: ffmpeg was not found on PATH: chunks of video, GIF, animated WebP and sound items fail on this worker (other workers retry them). Install it: apt-get install ffmpeg.',
    );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`effectcraft-cli worker: ${signal}: stopping`);
      for (const s of SIGNALS) process.off(s, stop);
      resolve();
    };
    for (const s of SIGNALS) process.on(s, stop);
  });
  await worker.stop();
  // A Redis that went away leaves ioredis reconnect timers behind: they must not keep a stopped worker alive.
  setTimeout(() => process.exit(EXIT.ok), 1000).unref();
  return EXIT.ok;
}
