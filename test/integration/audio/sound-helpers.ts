/** Shorthands for the sound tests: a session with the real compositor, sound layers, renders, time maps. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Layer, Project } from '../../../src/engine/index.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { createSession, type Session, type SessionOptions } from '../../../src/session.js';
import { run } from '../../helpers/queue.js';

export function soundSession(options: SessionOptions['renderQueue'] = {}): Session {
  return createSession({ renderQueue: { maxWorkers: 2, ...options } });
}

/** A small composition (black background); returns its id. */
export async function soundComp(s: Session, frameRate = 10, duration = 2, size = 32): Promise<string> {
  const { id } = await run<{ id: string }>(s, 'comp.new', {
    name: `Comp ${Math.random().toString(36).slice(2, 8)}`,
    width: size,
    height: size,
    frameRate,
    duration,
    backgroundColor: '#000000',
  });
  return id;
}

/** Imports `path` and adds it to `comp` as a layer; returns the layer id. */
export async function addSound(
  s: Session,
  comp: string,
  path: string,
  timing: { startTime?: number; inPoint?: number; outPoint?: number } = {},
): Promise<string> {
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path });
  const { id } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
  if (Object.keys(timing).length) await run(s, 'layer.setTiming', { comp, layer: id, ...timing });
  return id;
}

/** Renders `comp` to `output` as one queue item; returns the job result. */
export async function renderTo(
  s: Session,
  comp: string,
  output: string,
  extra: Record<string, unknown> = {},
): Promise<JobResult> {
  await run(s, 'renderQueue.clear');
  await run(s, 'renderQueue.add', { comp, output, ...extra });
  return run<JobResult>(s, 'renderQueue.render');
}

/**
 * Gives a layer a time map through a project file round trip (the document only changes through commands;
 * opening a file is one).
 */
export async function setTimeMap(
  s: Session,
  dir: string,
  layerId: string,
  time: NonNullable<Layer['time']>,
): Promise<void> {
  const path = join(dir, `retimed-${Math.random().toString(36).slice(2, 8)}.ecproj`);
  await run(s, 'project.save', { path });
  const doc = JSON.parse(await readFile(path, 'utf8')) as Project;
  for (const item of doc.items)
    if (item.type === 'composition') for (const l of item.layers) if (l.id === layerId) l.time = time;
  await writeFile(path, JSON.stringify(doc));
  await run(s, 'project.open', { path });
}
