/**
 * Helpers of the distributed-render e2e tests: worker processes of the built CLI, a render interrupted on a
 * condition, local reference renders, and what ffmpeg and the folders say about the outputs.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Engine } from '../../src/engine/index.js';
import { cliPath, repoRoot } from './cli.js';
import { tone } from './audio.js';
import { newEngine, run } from './engine.js';
import { hashFiles } from './queue.js';
import { startRedis, type RedisServer } from './redis.js';
import { runCli } from './spawn.js';
import { tempDir } from './tmp.js';

export interface Worker {
  child: ChildProcess;
  log: () => string;
}

/** Starts `effectcraft-cli worker --redis url`, as the user `uid` when given; resolves once it waits for jobs. */
export async function startWorker(
  url: string,
  extra: string[] = [],
  uid?: number,
  env?: NodeJS.ProcessEnv,
): Promise<Worker> {
  const child = spawn(process.execPath, [cliPath, 'worker', '--redis', url, '--concurrency', '1', ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(uid !== undefined && { uid, gid: uid }),
    ...(env && { env }),
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('waiting for render jobs')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}): ${log}`)));
  });
  return { child, log: () => log };
}

export async function stopWorker(w: Worker): Promise<void> {
  // A worker killed by a signal has a signalCode and no exitCode.
  if (w.child.exitCode !== null || w.child.signalCode !== null) return;
  const exited = once(w.child, 'exit');
  w.child.kill('SIGTERM');
  await exited;
}

/**
 * Runs the built CLI in `cwd`; `interrupt` is asked on each chunk of its stderr and of the `watch` workers'
 * logs (polled), and the render gets SIGINT the first time it says yes.
 */
export function cliUntil(
  args: string[],
  cwd: string,
  interrupt: (stderr: string) => boolean,
  watch: Worker[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const check = () => {
      if (!sent && interrupt(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    };
    const poll = watch.length ? setInterval(check, 20) : undefined;
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A new folder holding a copy of the sample project, sample.ecproj. */
export async function sampleDir(): Promise<string> {
  const dir = await tempDir();
  await copyFile(join(repoRoot, 'fixtures/sample/sample.ecproj'), join(dir, 'sample.ecproj'));
  return dir;
}

/** `render sample.ecproj --comp Sample --output out/f_[###].png --redis URL`, then `extra`. */
export function sampleOnWorkers(url: string, ...extra: string[]): string[] {
  return [
    'render',
    'sample.ecproj',
    '--comp',
    'Sample',
    '--output',
    'out/f_[###].png',
    '--redis',
    url,
    ...extra,
  ];
}

/** `--chunk-size chunk --attempts attempts`. */
export function retries(chunk: number, attempts: number): string[] {
  return ['--chunk-size', String(chunk), '--attempts', String(attempts)];
}

/** A PNG of `size` pixels square in one colour, written to `path`. */
export async function pngFile(path: string, colour: string, size = 8): Promise<string> {
  await sharp({ create: { width: size, height: size, channels: 4, background: colour } })
    .png()
    .toFile(path);
  return path;
}

/** A copy of the sample project rendered locally to local/, and the render arguments both renders share. */
export async function sampleRenderedLocally(
  output = ['--output', 'local/f_[###].png'],
): Promise<{ dir: string; common: string[] }> {
  const dir = await sampleDir();
  const common = ['render', 'sample.ecproj', '--comp', 'Sample'];
  const local = await runCli([...common, ...output], { cwd: dir, timeoutMs: 120_000 });
  expect(local.code).toBe(0);
  return { dir, common };
}

/**
 * ffmpeg's framemd5 of every frame (stream, dts, pts, duration, size, md5), comment lines left out. `decoder`:
 * input options, e.g. ['-c:v', 'libvpx-vp9'] to decode VP9 with its alpha plane.
 */
export function framemd5(path: string, decoder: string[] = []): string[] {
  const out = execFileSync('ffmpeg', ['-v', 'error', ...decoder, '-i', path, '-f', 'framemd5', '-'], {
    encoding: 'utf8',
  });
  return out.split('\n').filter((l) => l && !l.startsWith('#'));
}

/** The presentation times of the key frames of a video. */
export function keyFrames(path: string): string[] {
  const out = execFileSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts,flags', '-of', 'csv=p=0', path],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter((l) => l.includes('K'));
}

/** How many chunks the workers have started so far (their logs name each chunk's frames). */
export function chunksTaken(workers: Worker[]): number {
  return workers.flatMap((w) => w.log().match(/frames \d+-\d+/g) ?? []).length;
}

/** The frames of `dir` (manifest left out: it names its own folder) with their sha256. */
export async function frameHashes(dir: string): Promise<Record<string, string>> {
  const all = await hashFiles(dir);
  return Object.fromEntries(Object.entries(all).filter(([n]) => !n.endsWith('.manifest.json')));
}

/** A manifest with its paths reduced to file names, so two folders' manifests compare. */
export async function manifestOf(dir: string): Promise<unknown> {
  const name = (await readdir(dir)).find((n) => n.endsWith('.manifest.json'))!;
  const m = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
    item: string;
    output: string;
    files: { path: string }[];
  };
  return {
    ...m,
    item: undefined,
    output: basename(m.output),
    files: m.files.map((f) => ({ ...f, path: basename(f.path) })),
  };
}

/** A 32-wide composition at 10 fps, `seconds` long: a teal bar that moves left to right, a new place each frame. */
export async function movingBarComp(
  engine: Engine,
  name: string,
  height: number,
  seconds: number,
): Promise<void> {
  await run(engine, 'comp.new', { name, width: 32, height, frameRate: 10, duration: seconds });
  await run(engine, 'layer.addSolid', { name: 'Bar', color: '#008080', width: 8, height });
  for (const [time, x] of [
    [0, 4],
    [seconds - 0.1, 28],
  ] as const)
    await run(engine, 'property.setKeyframe', {
      layer: 'Bar',
      property: 'transform.position',
      time,
      value: [x, height / 2],
    });
}

/**
 * A 32x16 template of `seconds` (default 1, 10 fps) saved as DIR/template.ecproj: a bar whose colour is the
 * input "accent" and which moves every frame; with `logo`, a footage layer showing that file whose source is
 * the input "logo". Its path.
 */
export async function templateProject(
  dir: string,
  { seconds = 1, logo }: { seconds?: number; logo?: string } = {},
): Promise<string> {
  const engine = newEngine();
  await movingBarComp(engine, 'T', 16, seconds);
  const inputs = [{ name: 'accent', type: 'color', bind: [{ layer: 'Bar', property: 'solid.color' }] }];
  if (logo) {
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: logo });
    await run(engine, 'layer.addFootage', { comp: 'T', footage, name: 'Logo' });
    inputs.push({ name: 'logo', type: 'footage', bind: [{ layer: 'Logo', property: 'source' }] });
  }
  for (const input of inputs) await run(engine, 'input.define', input);
  const path = join(dir, 'template.ecproj');
  await run(engine, 'project.save', { path });
  return path;
}

/** DIR/s.ecproj: a 3 s composition "Spot" (32x18, 10 fps, a moving bar) with a 440 Hz tone as its sound. */
export async function toneProject(dir: string): Promise<void> {
  const engine = newEngine();
  await movingBarComp(engine, 'Spot', 18, 3);
  const { id: footage } = await run<{ id: string }>(engine, 'file.import', {
    path: await tone(dir, { freq: 440, seconds: 3 }),
  });
  await run(engine, 'layer.addFootage', { comp: 'Spot', footage });
  await run(engine, 'project.save', { path: join(dir, 's.ecproj') });
}

/**
 * DIR/long.ecproj: composition "Long", 32x18 at 1 fps for `seconds`, a moving bar over a 3 s tone looped for
 * the whole composition; its sound takes seconds to mix and encode where its picture takes a moment.
 */
export async function loopedToneProject(dir: string, seconds: number, { loop = true } = {}): Promise<void> {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'Long', width: 32, height: 18, frameRate: 1, duration: seconds });
  await run(engine, 'layer.addSolid', { name: 'Bar', color: '#008080', width: 8, height: 18 });
  await run(engine, 'property.setKeyframe', {
    layer: 'Bar',
    property: 'transform.position',
    time: seconds - 1,
    value: [28, 9],
  });
  // Looped, a 3 s tone; otherwise one as long as the composition (a sound file the mix's ffmpeg reads itself).
  const { id: footage } = await run<{ id: string }>(engine, 'file.import', {
    path: await tone(dir, { freq: 440, seconds: loop ? 3 : seconds }),
  });
  await run(engine, 'layer.addFootage', { comp: 'Long', footage, name: 'Tone' });
  if (loop) await run(engine, 'layer.setTimeMap', { layer: 'Tone', loop: true });
  await run(engine, 'layer.setTiming', { layer: 'Tone', outPoint: seconds });
  await run(engine, 'project.save', { path: join(dir, 'long.ecproj') });
}

/**
 * A redis-server and `count` worker processes for the tests of the enclosing describe block, started before
 * them and stopped after. Read `url` and `workers` inside the tests.
 */
export function redisWithWorkers(count = 2): { readonly url: string; readonly workers: Worker[] } {
  let redis: RedisServer | undefined;
  const workers: Worker[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    const url = redis.url;
    workers.push(...(await Promise.all(Array.from({ length: count }, () => startWorker(url)))));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await redis?.stop();
  });
  return {
    get url() {
      return redis!.url;
    },
    workers,
  };
}
