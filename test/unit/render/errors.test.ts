/** Renderer failures and warnings: fonts, precomp cycles, missing footage, determinism. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isEngineError, type Composition, type Project } from '../../../src/engine/index.js';
import { createFrameRenderer, availableFamilies } from '../../../src/render/index.js';
import { Scene } from '../../integration/render/scenes.js';
import { makeChecker } from '../../integration/render/make-assets.js';
import { tempDir } from '../../helpers/tmp.js';

const newRenderer = () => createFrameRenderer({ readFile: (p) => readFile(p) });

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (isEngineError(err)) return err.code;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('renderer errors and determinism', () => {
  it('bundles Inter', () => {
    expect(availableFamilies()).toContain('Inter');
  });

  it('an unknown font family is bad_argument naming the available families', async () => {
    const s = new Scene();
    await s.cmd('comp.new', { width: 100, height: 50 });
    await s.cmd('layer.addText', { text: 'x', fontFamily: 'Comic Sans MS' });
    const r = newRenderer();
    const err = await r.renderFrame(s.doc, s.doc.activeComp!, 0, { missingFootage: 'fail' }).catch((e) => e);
    expect(isEngineError(err) && err.code).toBe('bad_argument');
    expect(String(err.message)).toContain('Inter');
  });

  it('a precomp cycle in a hand-edited project is a clear bad_argument, not a stack overflow', async () => {
    const s = new Scene();
    const a = await s.cmd('comp.new', { name: 'A', width: 50, height: 50 });
    const b = await s.cmd('comp.new', { name: 'B', width: 50, height: 50 });
    await s.cmd('layer.addPrecomp', { comp: b.id, source: a.id });
    // The engine refuses cycles, so close the loop by editing the data as a project file could.
    const doc = structuredClone(s.doc) as Project;
    const compA = doc.items.find((i) => i.id === a.id) as Composition;
    const layerB = structuredClone((doc.items.find((i) => i.id === b.id) as Composition).layers[0]!);
    layerB.id = 'layer_99';
    layerB.source = { kind: 'precomp', comp: b.id };
    compA.layers.push(layerB);
    expect(await codeOf(newRenderer().renderFrame(doc, b.id, 0, { missingFootage: 'fail' }))).toBe(
      'bad_argument',
    );
  });

  it('unreadable footage: a placeholder and a warning for previews, unsupported_format for finals', async () => {
    const dir = await tempDir();
    const path = join(dir, 'gone.png');
    await makeChecker(path);
    const s = new Scene();
    await s.cmd('comp.new', { width: 200, height: 150, backgroundColor: '#000000' });
    const f = await s.cmd('file.import', { path, name: 'Gone' });
    await s.cmd('layer.addFootage', { footage: f.id });
    await writeFile(path, 'not an image any more');
    const r = newRenderer();
    const frame = await r.renderFrame(s.doc, s.doc.activeComp!, 0, { missingFootage: 'placeholder' });
    expect(frame.warnings).toHaveLength(1);
    expect(frame.warnings[0]).toContain('Gone');
    expect(frame.warnings[0]).toContain(path);
    // The placeholder is visible: the centre pixel is not the black background.
    const i = (75 * 200 + 100) * 4;
    expect([...frame.rgba.subarray(i, i + 3)]).not.toEqual([0, 0, 0]);
    // The file is there, its content is not an image: not "put the file back" (no_such_file).
    expect(await codeOf(r.renderFrame(s.doc, s.doc.activeComp!, 0, { missingFootage: 'fail' }))).toBe(
      'unsupported_format',
    );
  });

  it('warns about characters the bundled fonts cannot draw, and only then', async () => {
    const s = new Scene();
    await s.cmd('comp.new', { width: 200, height: 60 });
    await s.cmd('layer.addText', { text: 'Café – “ok” €', name: 'Latin' });
    const latin = await newRenderer().renderFrame(s.doc, s.doc.activeComp!, 0, { missingFootage: 'fail' });
    expect(latin.warnings).toEqual([]);
    await s.cmd('layer.addText', { text: '中文 😀', name: 'Wide' });
    const wide = await newRenderer().renderFrame(s.doc, s.doc.activeComp!, 0, { missingFootage: 'fail' });
    expect(wide.warnings).toHaveLength(1);
    expect(wide.warnings[0]).toContain('Wide');
    expect(wide.warnings[0]).toContain('中');
  });

  it('the same text frame is byte-identical across renderers', async () => {
    const s = new Scene();
    await s.cmd('comp.new', { width: 320, height: 120 });
    await s.cmd('layer.addText', {
      text: 'Same pixels\nevery time',
      fontSize: 40,
      fontWeight: 700,
      strokeWidth: 2,
    });
    const a = await newRenderer().renderFrame(s.doc, s.doc.activeComp!, 0, { missingFootage: 'fail' });
    const b = await newRenderer().renderFrame(s.doc, s.doc.activeComp!, 0, { missingFootage: 'fail' });
    expect(a.rgba.equals(b.rgba)).toBe(true);
    // And text actually drew something.
    expect(a.rgba.some((v, i) => i % 4 === 0 && v > 200)).toBe(true);
  });

  it('an unknown composition is not_found; a bad scale is bad_argument', async () => {
    const s = new Scene();
    await s.cmd('comp.new', { width: 10, height: 10 });
    const r = newRenderer();
    expect(await codeOf(r.renderFrame(s.doc, 'comp_404', 0, { missingFootage: 'fail' }))).toBe('not_found');
    expect(
      await codeOf(r.renderFrame(s.doc, s.doc.activeComp!, 0, { scale: 0, missingFootage: 'fail' })),
    ).toBe('bad_argument');
  });
});
