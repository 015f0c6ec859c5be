/**
 * The main-thread side of the preview worker against a stand-in worker (real worker threads, real files):
 * documents sent once per snapshot, footage read through the given readFile, a worker's bug reported without
 * its stack, a worker that dies failing only its frame, and the next frame starting a new worker.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineError, type Project } from '../../../src/engine/index.js';
import { createPreviewWorker } from '../../../src/render/preview/client.js';
import type { FrameRenderer } from '../../../src/render/types.js';
import { tempDir } from '../../helpers/tmp.js';

const workerUrl = new URL('../../helpers/preview-stub-worker.mjs', import.meta.url);
const options = { missingFootage: 'placeholder' } as const;

function docNamed(name: string, paths: string[] = []): Project {
  return { name, items: paths.map((path) => ({ path })) } as unknown as Project;
}

async function failure(
  p: Promise<unknown>,
): Promise<{ name: string; code?: string; message: string; stack?: string }> {
  try {
    await p;
  } catch (err) {
    return err as EngineError;
  }
  throw new Error('it unexpectedly succeeded');
}

function stub(read = (p: string) => readFile(p)): FrameRenderer {
  return createPreviewWorker({ readFile: read, workerUrl });
}

describe('the preview worker client', () => {
  it('draws frames of each new snapshot, and reads footage through its readFile', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.bin'), Buffer.alloc(5));
    const read: string[] = [];
    const r = stub((p) => (read.push(p), readFile(p)));
    const a = docNamed('A', [join(dir, 'a.bin'), join(dir, 'missing.bin')]);
    const first = await r.renderFrame(a, 'frame', 0, options);
    expect([...first.rgba]).toEqual([1, 2, 3, 4]);
    expect(first.warnings).toEqual(['doc A sent']);
    // The same snapshot is not sent twice; a new one is.
    expect((await r.renderFrame(a, 'frame', 0, options)).warnings).toEqual(['doc A kept']);
    expect((await r.renderFrame(docNamed('B'), 'frame', 0, options)).warnings).toEqual(['doc B sent']);
    expect((await r.renderFrame(a, 'read', 0, options)).warnings).toEqual(['bytes 5']);
    const missing = (await r.renderFrame(a, 'read', 1, options)).warnings[0]!;
    expect(JSON.parse(missing.replace('failure ', ''))).toMatchObject({ errno: 'ENOENT' });
    expect(read).toEqual([join(dir, 'a.bin'), join(dir, 'missing.bin')]);
    r.dispose();
  });

  it('asks the worker to encode stills, and hands back the file it sends', async () => {
    const r = stub();
    const still = await r.renderStill(docNamed('A'), 'still', 0, options, { kind: 'jpeg', quality: 77 });
    expect(JSON.parse(still.bytes.toString('utf8'))).toEqual({ kind: 'jpeg', quality: 77 });
    expect(still).toMatchObject({ width: 1, height: 1, warnings: [] });
    // Pixels still come back as pixels.
    expect([...(await r.renderFrame(docNamed('A'), 'frame', 0, options)).rgba]).toEqual([1, 2, 3, 4]);
    r.dispose();
  });

  it('passes engine errors from readFile on with their code (a confinement refusal stays one)', async () => {
    const refuse = () => Promise.reject(new EngineError('path_outside_roots', 'outside', 'Move it.'));
    const r = stub(refuse);
    const reply = (await r.renderFrame(docNamed('A', ['/x']), 'read', 0, options)).warnings[0]!;
    expect(JSON.parse(reply.replace('failure ', ''))).toEqual({
      info: { code: 'path_outside_roots', message: 'outside', remediation: 'Move it.' },
    });
    r.dispose();
  });

  it('reports a bug as a plain error whose message is not its stack', async () => {
    const r = stub();
    const err = await failure(r.renderFrame(docNamed('A'), 'bug', 0, options));
    expect(err).not.toBeInstanceOf(EngineError);
    expect(err.message).toBe('boom');
    expect(err.stack).toContain('at stub');
    r.dispose();
  });

  it('fails only the frame whose worker died (render_failed), and starts a new worker for the next', async () => {
    const r = stub();
    const a = docNamed('A');
    expect((await r.renderFrame(a, 'frame', 0, options)).warnings).toEqual(['doc A sent']);
    const err = await failure(r.renderFrame(a, 'exit', 0, options));
    expect(err).toMatchObject({ code: 'render_failed' });
    // The new worker holds no document yet: the same snapshot is sent again.
    expect((await r.renderFrame(a, 'frame', 0, options)).warnings).toEqual(['doc A sent']);
    r.dispose();
  });
});
