/** Render queue test helpers: sessions with the stand-in renderer, command shorthands, file listings. */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JobResult } from '../../src/render/queue/service.js';
import { createSession, type Session, type SessionOptions } from '../../src/session.js';
import { repoRoot } from './cli.js';

/** The stand-in renderer (solid colour per frame) that unit tests load into the render workers. */
export const colorRendererUrl = pathToFileURL(join(repoRoot, 'test/helpers/color-renderer.mjs')).href;

export function queueSession(options: SessionOptions['renderQueue'] = {}): Session {
  return createSession({ renderQueue: { rendererModule: colorRendererUrl, maxWorkers: 2, ...options } });
}

/** Runs a command and returns its result; a failure throws with the error code in the message. */
export async function run<R = Record<string, unknown>>(
  s: Session,
  id: string,
  params: unknown = {},
): Promise<R> {
  const r = await s.engine.execute<R>(id, params);
  if (!r.ok) throw new Error(`${id} failed: ${r.error.code}: ${r.error.message}`);
  return r.result;
}

/** Runs a command expecting failure; returns the error code. */
export async function failCode(s: Session, id: string, params: unknown = {}): Promise<string> {
  const r = await s.engine.execute(id, params);
  if (r.ok) throw new Error(`${id} unexpectedly succeeded`);
  return r.error.code;
}

/** A composition with `layers` solid layers; returns its id. */
export async function addComp(
  s: Session,
  opts: {
    name: string;
    width?: number;
    height?: number;
    frameRate?: number;
    duration?: number;
    layers?: number;
  },
): Promise<string> {
  const { id } = await run<{ id: string }>(s, 'comp.new', {
    name: opts.name,
    width: opts.width ?? 32,
    height: opts.height ?? 18,
    frameRate: opts.frameRate ?? 10,
    duration: opts.duration ?? 1,
  });
  for (let i = 0; i < (opts.layers ?? 1); i++) await run(s, 'layer.addSolid', { comp: id, color: '#336699' });
  return id;
}

/** Every entry in `dir`, hidden ones included, sorted (to prove exact cleanup). */
export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort();
}

/** Every entry in `dir`, hidden ones included, with its sha256 (to prove files were left byte-identical). */
export async function hashFiles(dir: string): Promise<Record<string, string>> {
  const names = await listDir(dir);
  const sums = await Promise.all(
    names.map(async (n) =>
      createHash('sha256')
        .update(await readFile(join(dir, n)))
        .digest('hex'),
    ),
  );
  return Object.fromEntries(names.map((n, i) => [n, sums[i]!]));
}

/** Renders the whole queue (renderQueue.render `params`) and stops the job once `frames` frames of an item are done. */
export async function renderStoppedAt(
  s: Session,
  frames: number,
  params: object = {},
  /** Only in the item at this index of the job (an earlier one may report its frames too). */
  item?: number,
): Promise<JobResult> {
  const job = s.engine.execute<JobResult>('renderQueue.render', params);
  const off = s.renderQueue.onProgress((p) => {
    if ((item === undefined || p.itemsDone === item) && p.framesDone >= frames) s.renderQueue.stop();
  });
  const r = await job.finally(off);
  if (!r.ok) throw new Error(`renderQueue.render failed: ${r.error.code}: ${r.error.message}`);
  return r.result;
}
