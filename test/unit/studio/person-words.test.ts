// What the studio's toasts say to a person: the engine's real errors and warnings for the page's commands, said
// with the studio's own controls (by code, command and params), and the engine's words for anything else.
import { describe, expect, it } from 'vitest';
import type { Project } from '../../../src/engine/model.js';
import { errorForPerson, warningsForPerson, type Call } from '../../../src/studio/ui/live/person-words.js';
import { join } from 'node:path';
import sharp from 'sharp';
import { newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';
import { tone } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';

async function scene() {
  const engine = newEngine();
  const inner = await run<{ id: string }>(engine, 'comp.new', {
    name: 'Inner',
    width: 64,
    height: 36,
    duration: 10,
  });
  const main = await run<{ id: string }>(engine, 'comp.new', {
    name: 'Main',
    width: 64,
    height: 36,
    duration: 10,
  });
  const pre = await run<{ id: string }>(engine, 'layer.addPrecomp', { comp: main.id, source: inner.id });
  const text = await run<{ id: string }>(engine, 'layer.addText', { comp: main.id, text: 'Hi' });
  return { engine, main: main.id, pre: pre.id, text: text.id };
}

/** The layers the page had shown: every one the scene made. */
const hadLayer = (id: string) => /^layer_\d+$/.test(id);

/** The engine's error for `call`, and what a person is told. */
async function told(engine: ReturnType<typeof newEngine>, call: Call) {
  const r = await engine.execute(call.id, call.params);
  if (r.ok) throw new Error(`${call.id} worked`);
  return {
    engine: r.error,
    person: errorForPerson(call, r.error, { doc: engine.view.doc as Project, hadLayer }),
  };
}

describe('errorForPerson', () => {
  it('says a layer needs a name, not which schema to read', async () => {
    const { engine, main, text } = await scene();
    const { person } = await told(engine, {
      id: 'layer.rename',
      params: { comp: main, layer: text, name: '' },
    });
    expect(person).toMatchObject({ code: 'bad_argument', message: 'A layer needs a name.' });
    expect(person!.remediation).not.toMatch(/layer\.rename|schema|command_list/);
  });

  it('says there is nothing to redo or undo', async () => {
    const { engine } = await scene();
    expect((await told(engine, { id: 'edit.redo', params: {} })).person?.message).toBe('Nothing to redo.');
    const fresh = newEngine();
    expect((await told(fresh, { id: 'edit.undo', params: {} })).person?.message).toBe('Nothing to undo.');
  });

  it('says a layer deleted by someone else was deleted, without ids and tools', async () => {
    const { engine, main, text } = await scene();
    await run(engine, 'layer.delete', { comp: main, layer: text });
    const call = {
      id: 'property.set',
      params: { comp: main, layer: text, property: 'transform.rotation', value: 5 },
    };
    const { engine: words, person } = await told(engine, call);
    expect(words.message).toMatch(/doc_inspect|Available/);
    expect(person?.message).toMatch(/^That layer was deleted/);
    expect(`${person?.message} ${person?.remediation}`).not.toMatch(/layer_\d|doc_inspect/);
  });

  it('says someone else saved the file, and how to keep both or replace it, without params', async () => {
    const path = join(await tempDir(), 'shared.ecproj');
    const { engine } = await scene();
    await run(engine, 'project.save', { path });
    const other = newEngine();
    await run(other, 'project.open', { path });
    await run(other, 'comp.new', { name: 'Theirs', width: 64, height: 36 });
    await run(other, 'project.save');
    const { engine: words, person } = await told(engine, { id: 'project.save', params: {} });
    expect(words.code).toBe('file_changed');
    expect(person?.message).toMatch(/^Someone else saved this project file/);
    expect(`${person?.message} ${person?.remediation}`).not.toMatch(/project\.save|overwrite/);
  });

  it("keeps the engine's words for what it has no words of its own for", async () => {
    const { engine, main } = await scene();
    const { person } = await told(engine, {
      id: 'property.set',
      params: { comp: main, layer: 'nope', value: 1, property: 'x' },
    });
    // A layer the page never showed (a made-up name in an agent's script): not a deletion.
    expect(person).toBeNull();
  });

  // The Properties panel's Fit to comp and the Project panel's "+" (until 2026-12-08 their toasts told a person
  // to run layer.setParent {...}, property.clearKeyframes {...} or to pass frameRate / width and height).
  const STUDIO_WORDS = /layer\.\w+|property\.\w+|\{|frameRate|fit: |width and height/;

  it('says how to fit a parented or keyframed layer with the Layers and Properties panels', async () => {
    const { engine, main } = await scene();
    const solid = await run<{ id: string }>(engine, 'layer.addSolid', {
      comp: main,
      name: 'Plate',
      color: '#ff0000',
    });
    const nul = await run<{ id: string }>(engine, 'layer.addNull', { comp: main, name: 'Rig' });
    await run(engine, 'layer.setParent', { comp: main, layer: solid.id, parent: nul.id });
    const call = { id: 'layer.fit', params: { comp: main, layer: solid.id, mode: 'cover' } };
    const parented = (await told(engine, call)).person;
    expect(parented).toMatchObject({ code: 'bad_argument' });
    expect(parented!.message).toMatch(/"Plate" is linked to a parent layer/);
    expect(parented!.remediation).toMatch(/Parent to None in the Layers panel/);
    expect(parented!.message + ' ' + parented!.remediation).not.toMatch(STUDIO_WORDS);

    await run(engine, 'layer.setParent', { comp: main, layer: solid.id, parent: null });
    await run(engine, 'property.setKeyframe', {
      comp: main,
      layer: solid.id,
      property: 'transform.scale',
      time: 0,
      value: [50, 50],
    });
    const keyed = (await told(engine, call)).person;
    expect(keyed!.message).toMatch(/keyframes on Scale/);
    expect(keyed!.remediation).toMatch(/keyframe button beside Scale in Properties/);
    expect(keyed!.message + ' ' + keyed!.remediation).not.toMatch(STUDIO_WORDS);
  });

  it('says why the "+" beside a picture too large for a composition cannot make one, without params', async () => {
    const engine = newEngine();
    const path = join(await tempDir(), 'pano.png');
    await sharp({ create: { width: 9000, height: 10, channels: 3, background: '#0000ff' } })
      .png()
      .toFile(path);
    const { id } = await run<{ id: string }>(engine, 'file.import', { path });
    const r = await told(engine, { id: 'comp.fromFootage', params: { footage: id } });
    expect(r.engine.remediation).toMatch(/fit: "contain"/);
    expect(r.person!.message).toMatch(/9000x10; a composition is at most 8192 pixels a side/);
    expect(r.person!.remediation).toMatch(/New composition in the Project panel/);
    expect(r.person!.message + ' ' + r.person!.remediation).not.toMatch(STUDIO_WORDS);
  });
});

describe('warningsForPerson', () => {
  it('says where a sped-up source ends and how to fix it with the Timeline or Loop', async () => {
    const { engine, main, pre } = await scene();
    const call = { id: 'layer.setTimeMap', params: { comp: main, layer: pre, speed: 4 } };
    const r = await engine.execute(call.id, call.params);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.warnings?.[0]).toMatch(/layer\.setTiming \{outPoint: 2\.5\}/);
    const said = warningsForPerson(call, r.warnings!, r.result, engine.view.doc as Project);
    expect(said).toEqual([
      'At speed 4 the source of "Inner" ends at 2.5 s: the layer shows nothing after that. Set its out point to 2.5 s (drag the end of its bar in the Timeline), or turn on Loop.',
    ]);
  });

  itWithFfmpeg(
    'says a frozen sound is silence with the Freeze and Loop switches, not a retime out point',
    async () => {
      const dir = await tempDir();
      const engine = newEngine();
      const main = await run<{ id: string }>(engine, 'comp.new', {
        name: 'Main',
        width: 64,
        height: 36,
        duration: 10,
      });
      const item = await run<{ id: string }>(engine, 'file.import', {
        path: await tone(dir, { freq: 440, seconds: 5 }),
      });
      const layer = await run<{ id: string }>(engine, 'layer.addFootage', {
        comp: main.id,
        footage: item.id,
      });
      // What the Properties panel's Freeze tick sends: the source moment under the playhead.
      const call = { id: 'layer.setTimeMap', params: { comp: main.id, layer: layer.id, freezeAt: 1 } };
      const r = await engine.execute(call.id, call.params);
      if (!r.ok) throw new Error(r.error.message);
      expect(r.warnings).toHaveLength(1);
      const said = warningsForPerson(call, r.warnings!, r.result, engine.view.doc as Project);
      expect(said).toHaveLength(1);
      expect(said![0]).toMatch(/frozen sound is silence/);
      expect(said![0]).toMatch(/Untick Freeze/);
      // Until 2026-12-08 it was taken for a retime's out point: "plays until 5 s, but the layer ends at 5 s".
      expect(said![0]).not.toMatch(/plays until|drag the end/);
    },
  );

  itWithFfmpeg(
    'says a sped-up sound file is silent after its source ends, not that it shows nothing',
    async () => {
      const dir = await tempDir();
      const engine = newEngine();
      const main = await run<{ id: string }>(engine, 'comp.new', {
        name: 'Main',
        width: 64,
        height: 36,
        duration: 10,
      });
      const item = await run<{ id: string }>(engine, 'file.import', {
        path: await tone(dir, { freq: 440, seconds: 5 }),
      });
      const layer = await run<{ id: string }>(engine, 'layer.addFootage', {
        comp: main.id,
        footage: item.id,
      });
      const call = { id: 'layer.setTimeMap', params: { comp: main.id, layer: layer.id, speed: 2 } };
      const r = await engine.execute(call.id, call.params);
      if (!r.ok) throw new Error(r.error.message);
      expect(warningsForPerson(call, r.warnings!, r.result, engine.view.doc as Project)).toEqual([
        'At speed 2 the source of "tone-440-5" ends at 2.5 s: the layer is silent after that. Set its out point to 2.5 s (drag the end of its bar in the Timeline), or turn on Loop.',
      ]);
    },
  );

  it("keeps other commands' warnings as the engine wrote them", () => {
    expect(warningsForPerson({ id: 'footage.relink', params: {} }, ['w'], {}, null)).toBeNull();
  });
});
