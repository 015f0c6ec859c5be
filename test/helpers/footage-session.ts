/**
 * Real sessions for the footage and render tests, ended after each test (`afterEach(disposeAll)`): a session
 * whose 64x48, 30 fps composition shows one footage file, and what a saved frame shows at its centre.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { createSession, type Session, type SessionOptions } from '../../src/session.js';
import { run } from './queue.js';

const open: Session[] = [];

/** A session (one render worker unless `options` say otherwise) that disposeAll ends. */
export function trackedSession(options: SessionOptions = { renderQueue: { maxWorkers: 1 } }): Session {
  const s = createSession(options);
  open.push(s);
  return s;
}

/** Stops every tracked session's render queue and ends its preview worker (its decoders with it). */
export async function disposeAll(): Promise<void> {
  for (const s of open.splice(0)) {
    s.renderQueue.stop();
    await s.renderQueue.idle();
    (await s.renderer()).dispose();
  }
}

/** The session, its composition (`duration` s, default 1) and the footage item and layer showing `path`. */
export async function showing(
  path: string,
  options: { name?: string; duration?: number } = {},
): Promise<{ s: Session; comp: string; footage: string; layer: string }> {
  const s = trackedSession();
  const size = { width: 64, height: 48, frameRate: 30, duration: options.duration ?? 1 };
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', size);
  const { id: footage } = await run<{ id: string }>(s, 'file.import', {
    path,
    ...(options.name ? { name: options.name } : {}),
  });
  const { id: layer } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
  return { s, comp, footage, layer };
}

/** The centre pixel's [r, g, b] of `comp` at `time`, saved by frame.save into `dir`. */
export async function savedCentre(
  s: Session,
  comp: string,
  time: number,
  dir: string,
): Promise<[number, number, number]> {
  const path = join(dir, `centre-${Math.random().toString(36).slice(2, 8)}.png`);
  await run(s, 'frame.save', { comp, time, path });
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}
