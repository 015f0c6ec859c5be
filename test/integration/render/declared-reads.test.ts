/**
 * The footage a frame command declares (readsFiles, which the confinement guard checks before it runs, on
 * both sides of the bridge) covers every file the renderer really reads for it: nested precomps, track mattes,
 * disabled and out-of-range layers included. A file read but not declared would escape the MCP-side check.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import { createFrameRenderer } from '../../../src/render/index.js';
import { createSession } from '../../../src/session.js';
import { png } from '../confinement/fixture.js';
import { tempDir } from '../../helpers/tmp.js';

async function scene(dir: string): Promise<{ engine: Engine; files: Record<string, string> }> {
  const { engine } = createSession();
  const ok = async (id: string, params: Record<string, unknown>) => {
    const r = await engine.execute<{ id: string }>(id, params);
    if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
  const files: Record<string, string> = {};
  const footage = async (name: string) => {
    files[name] = join(dir, `${name}.png`);
    await png(files[name]);
    return (await ok('file.import', { path: files[name] })).id;
  };
  const size = { width: 16, height: 16, duration: 2, frameRate: 10 };
  // Deep: Top -> Mid -> Leaf (footage "deep"); Top also holds a matte and a disabled, late layer.
  await ok('comp.new', { name: 'Leaf', ...size });
  await ok('layer.addFootage', { comp: 'Leaf', footage: await footage('deep') });
  await ok('comp.new', { name: 'Mid', ...size });
  await ok('layer.addPrecomp', { comp: 'Mid', source: 'Leaf' });
  await ok('comp.new', { name: 'Top', ...size });
  await ok('layer.addPrecomp', { comp: 'Top', source: 'Mid', name: 'Nested' });
  await ok('layer.addFootage', { comp: 'Top', footage: await footage('matte'), name: 'Matte' });
  await ok('layer.setTrackMatte', { comp: 'Top', layer: 'Nested', matte: 'Matte' });
  await ok('layer.addFootage', { comp: 'Top', footage: await footage('late'), name: 'Late' });
  await ok('layer.setTiming', { comp: 'Top', layer: 'Late', inPoint: 1, outPoint: 2 });
  await ok('layer.addFootage', { comp: 'Top', footage: await footage('off'), name: 'Off' });
  await ok('layer.setEnabled', { comp: 'Top', layer: 'Off', enabled: false });
  // Imported but used nowhere: not read, and not declared.
  await footage('unused');
  return { engine, files };
}

describe('the footage frame commands declare', () => {
  it('covers what the renderer reads, through nested precomps, and leaves out unused footage', async () => {
    const dir = await tempDir();
    const { engine, files } = await scene(dir);
    const read = new Set<string>();
    const renderer = createFrameRenderer({
      readFile: (p) => {
        read.add(p);
        return readFile(p);
      },
    });
    for (const comp of ['Top', 'Mid', 'Leaf']) {
      const id = engine.document.items.find((i) => i.name === comp)!.id;
      read.clear();
      for (const time of [0, 1.5])
        await renderer.renderFrame(engine.document, id, time, { missingFootage: 'fail' });
      for (const command of ['frame.preview', 'frame.save', 'renderQueue.render']) {
        // renderQueue.render declares the footage of its queued items: queue this comp alone.
        const params =
          command === 'renderQueue.render'
            ? {}
            : { comp, ...(command === 'frame.save' ? { path: '/x.png' } : {}) };
        if (command === 'renderQueue.render') {
          await engine.execute('renderQueue.clear', {});
          await engine.execute('renderQueue.add', { comp, output: join(dir, 'f_[##].png') });
        }
        const declared = engine.command(command)!.readsFiles!(engine.view, params);
        for (const p of read) expect(declared, `${command} ${comp}`).toContain(p);
        expect(declared).not.toContain(files.unused);
      }
    }
    expect(engine.command('frame.preview')!.readsFiles!(engine.view, { comp: 'Top' }).sort()).toEqual(
      [files.deep, files.matte, files.late, files.off].sort(),
    );
  });

  it('declares nothing for a composition that does not exist (the command reports it)', async () => {
    const dir = await tempDir();
    const { engine } = await scene(dir);
    expect(engine.command('frame.preview')!.readsFiles!(engine.view, { comp: 'Nope' })).toEqual([]);
    expect(codeOf(await engine.execute('frame.preview', { comp: 'Nope' }))).toBe('not_found');
  });
});

const codeOf = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code);
