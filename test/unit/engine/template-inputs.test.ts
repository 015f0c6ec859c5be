import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { applyProps } from '../../../src/engine/apply-props.js';
import { parseProject, serializeProject } from '../../../src/engine/project-file.js';
import type { Composition, Project, TextSource } from '../../../src/engine/model.js';
import { checkProps, propsFromText } from '../../../src/engine/template-inputs.js';
import type { z } from 'zod';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

type Text = z.infer<typeof TextSource>;

/** A lower third: a name text, a colour bar, a badge that can be hidden, a size choice, a font size. */
async function lowerThird() {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'Lower third', width: 64, height: 32, duration: 1 });
  await run(engine, 'layer.addSolid', { name: 'Bar', color: '#000080' });
  await run(engine, 'layer.addText', { name: 'Name', text: 'Name here' });
  await run(engine, 'layer.addSolid', { name: 'Badge', color: '#ffffff', width: 8, height: 8 });
  await run(engine, 'input.define', {
    name: 'name',
    type: 'text',
    bind: [{ layer: 'Name', property: 'text.text' }],
  });
  await run(engine, 'input.define', {
    name: 'accent',
    type: 'color',
    default: 'teal',
    bind: [{ layer: 'Bar', property: 'solid.color' }],
  });
  await run(engine, 'input.define', {
    name: 'badge',
    type: 'boolean',
    default: true,
    bind: [{ layer: 'Badge', property: 'enabled' }],
  });
  await run(engine, 'input.define', {
    name: 'align',
    type: 'choice',
    choices: ['left', 'center', 'right'],
    default: 'center',
    bind: [{ layer: 'Name', property: 'text.align' }],
  });
  await run(engine, 'input.define', {
    name: 'size',
    type: 'number',
    default: 40,
    bind: [{ layer: 'Name', property: 'text.fontSize' }],
  });
  return engine;
}

const comp = (doc: Project) => doc.items.find((i): i is Composition => i.type === 'composition')!;
const layer = (doc: Project, name: string) => comp(doc).layers.find((l) => l.name === name)!;

describe('template inputs', () => {
  it('define takes the default from the first binding, or writes the given default into the bound properties', async () => {
    const engine = await lowerThird();
    const inputs = comp(engine.document).inputs!;
    expect(inputs.map((i) => [i.name, i.type, i.default])).toEqual([
      ['name', 'text', 'Name here'],
      ['accent', 'color', '#008080'],
      ['badge', 'boolean', true],
      ['align', 'choice', 'center'],
      ['size', 'number', 40],
    ]);
    expect(layer(engine.document, 'Bar').source).toMatchObject({ color: { value: '#008080' } });
    expect((layer(engine.document, 'Name').source as Text).fontSize.value).toBe(40);
  });

  it('refuses a binding the input type cannot drive, an animated property, a default of the wrong type', async () => {
    const engine = await lowerThird();
    expect(await fails(engine, 'input.bind', { input: 'accent', layer: 'Name', property: 'text.text' })).toBe(
      'bad_argument',
    );
    expect(await fails(engine, 'input.bind', { input: 'name', layer: 'Bar', property: 'enabled' })).toBe(
      'bad_argument',
    );
    expect(
      await fails(engine, 'input.define', {
        name: 'clip',
        type: 'footage',
        bind: [{ layer: 'Bar', property: 'source' }],
      }),
    ).toBe('bad_argument');
    expect(await fails(engine, 'input.define', { name: 'n', type: 'number', default: 'ten' })).toBe(
      'bad_argument',
    );
    // A choice every value of which the property must take: text.align has no "justify".
    expect(
      await fails(engine, 'input.define', {
        name: 'a2',
        type: 'choice',
        choices: ['left', 'justify'],
        bind: [{ layer: 'Name', property: 'text.align' }],
      }),
    ).toBe('bad_argument');
    await run(engine, 'property.setKeyframe', {
      layer: 'Bar',
      property: 'transform.opacity',
      time: 0,
      value: 0,
    });
    expect(
      await fails(engine, 'input.define', {
        name: 'fade',
        type: 'number',
        bind: [{ layer: 'Bar', property: 'transform.opacity' }],
      }),
    ).toBe('bad_argument');
  });

  it("list names each binding's layer; unbind and remove are one undo step each", async () => {
    const engine = await lowerThird();
    const listed = await run<{ inputs: { name: string; bindings: { layerName: string }[] }[] }>(
      engine,
      'input.list',
    );
    expect(listed.inputs[1]).toMatchObject({
      name: 'accent',
      bindings: [{ layerName: 'Bar', property: 'solid.color' }],
    });
    await run(engine, 'input.unbind', { input: 'accent', layer: 'Bar', property: 'solid.color' });
    expect(comp(engine.document).inputs![1]!.bindings).toEqual([]);
    await run(engine, 'input.remove', { name: 'accent' });
    expect(comp(engine.document).inputs!.map((i) => i.name)).not.toContain('accent');
    await run(engine, 'edit.undo');
    expect(comp(engine.document).inputs!.map((i) => i.name)).toContain('accent');
  });

  it("a binding whose layer was deleted drives nothing and does not block the input's other edits", async () => {
    const engine = await lowerThird();
    await run(engine, 'layer.delete', { layer: 'Bar' });
    await run(engine, 'input.bind', { input: 'accent', layer: 'Name', property: 'text.fill' });
    const listed = await run<{ inputs: { name: string; bindings: { layerName: string | null }[] }[] }>(
      engine,
      'input.list',
    );
    expect(listed.inputs.find((i) => i.name === 'accent')!.bindings.map((b) => b.layerName)).toEqual([
      null,
      'Name',
    ]);
    const bar = comp(engine.document).inputs!.find((i) => i.name === 'accent')!.bindings[0]!.layer;
    await run(engine, 'input.unbind', { input: 'accent', layer: bar, property: 'solid.color' });
    await run(engine, 'edit.undo');
    // Redefining keeps the bindings that still resolve: the deleted layer's goes.
    await run(engine, 'input.define', { name: 'accent', type: 'color', default: 'red' });
    expect((layer(engine.document, 'Name').source as Text).fill.value).toBe('#ff0000');
    expect(comp(engine.document).inputs!.find((i) => i.name === 'accent')!.bindings).toHaveLength(1);
    expect(applyProps(engine.document, comp(engine.document).id, { accent: 'blue' })).not.toBe(
      engine.document,
    );
  });

  it('the inspect view shows the inputs', async () => {
    const engine = await lowerThird();
    const view = await run<{ activeComposition: { inputs: { name: string }[] } }>(engine, 'project.inspect');
    expect(view.activeComposition.inputs.map((i) => i.name)).toEqual([
      'name',
      'accent',
      'badge',
      'align',
      'size',
    ]);
  });

  it('checkProps names the input and what it accepts: unknown input, wrong type, out of a property range', async () => {
    const c = comp((await lowerThird()).document);
    expect(checkProps(c, { name: 'Ada', accent: 'gold', badge: false, size: 12 })).toEqual({
      ok: true,
      props: { name: 'Ada', accent: '#ffd700', badge: false, size: 12 },
    });
    expect(checkProps(c, { nmae: 'Ada' })).toMatchObject({ ok: false, input: 'nmae' });
    expect(checkProps(c, { size: 'big' })).toMatchObject({
      ok: false,
      input: 'size',
      accepts: 'a finite number',
    });
    expect(checkProps(c, { accent: 'not a colour' })).toMatchObject({ ok: false, input: 'accent' });
    expect(checkProps(c, { align: 'justify' })).toMatchObject({
      ok: false,
      accepts: 'one of: left, center, right',
    });
    // text.fontSize takes 1 to 2000: what it accepts is that range, the words a remedy is made of ("Pass props
    // with ..."); until 2026-12-08 it was the error message again ("Pass props with Invalid value for ...").
    expect(checkProps(c, { size: 0 })).toMatchObject({
      ok: false,
      input: 'size',
      accepts: 'a number from 1 to 2000, as "Name/text.fontSize" takes',
    });
  });

  it('propsFromText reads CSV fields as their inputs want and leaves empty fields to the default', async () => {
    const c = comp((await lowerThird()).document);
    expect(propsFromText(c, { name: '42', size: '12.5', badge: 'no', accent: '' })).toEqual({
      name: '42',
      size: 12.5,
      badge: false,
    });
    expect(propsFromText(c, { size: 'twelve' })).toEqual({ size: 'twelve' });
    // "name, align" CSV: the header is trimmed, and so is a choice (until 2026-12-07 " left" failed the row).
    expect(propsFromText(c, { align: ' left', size: ' 12' })).toEqual({ align: 'left', size: 12 });
    expect(propsFromText(c, { align: ' middle' })).toEqual({ align: ' middle' });
  });

  it('applyProps changes a copy where bound and leaves the document as it was', async () => {
    const engine = await lowerThird();
    const doc = engine.document;
    const before = serializeProject(doc);
    const applied = applyProps(doc, comp(doc).id, {
      name: 'Ada',
      accent: '#ff0000',
      badge: false,
      align: 'left',
    });
    expect((layer(applied, 'Name').source as Text).text).toBe('Ada');
    expect((layer(applied, 'Name').source as Text).align).toBe('left');
    expect(layer(applied, 'Bar').source).toMatchObject({ color: { value: '#ff0000' } });
    expect(layer(applied, 'Badge').enabled).toBe(false);
    expect(serializeProject(doc)).toBe(before);
    expect(serializeProject(engine.document)).toBe(before);
    // No props: the very same document.
    expect(applyProps(doc, comp(doc).id, {})).toBe(doc);
    expect(() => applyProps(doc, comp(doc).id, { accent: 3 })).toThrow(/accent/);
  });

  it('renderQueue.add checks props against the inputs before storing them', async () => {
    const engine = await lowerThird();
    const base = { comp: 'Lower third', output: '/tmp/out.png', frameRange: { start: 0, end: 0 } };
    expect(
      await fails(engine, 'renderQueue.add', { ...base, output: '/tmp/a_[#].png', props: { nobody: 1 } }),
    ).toBe('bad_argument');
    const r = await engine.execute('renderQueue.add', {
      ...base,
      output: '/tmp/a_[#].png',
      props: { size: 'x' },
    });
    expect(r.ok ? null : r.error.message).toMatch(/"size".*number/);
    await run(engine, 'renderQueue.add', { ...base, output: '/tmp/a_[#].png', props: { accent: 'red' } });
    expect(engine.document.renderQueue[0]!.props).toEqual({ accent: '#ff0000' });
    // An input a queued item gives a value cannot be removed or changed from under it; the refusal changes nothing.
    expect(await fails(engine, 'input.remove', { name: 'accent' })).toBe('bad_argument');
    const before = serializeProject(engine.document);
    expect(await fails(engine, 'input.define', { name: 'accent', type: 'number', default: 1 })).toBe(
      'bad_argument',
    );
    expect(serializeProject(engine.document)).toBe(before);
  });

  it('a project file whose item props do not fit its inputs does not open', async () => {
    const engine = await lowerThird();
    await run(engine, 'renderQueue.add', {
      comp: 'Lower third',
      output: '/tmp/c_[#].png',
      props: { size: 20 },
    });
    const file = JSON.parse(serializeProject(engine.document)) as Project;
    file.renderQueue[0]!.props = { size: 'twenty' };
    expect(() => parseProject(JSON.stringify(file), '/tmp/bad.ecproj')).toThrow(
      /renderQueue\[0\]\.props.*"size"/,
    );
  });

  it("comp.duplicate gives the copy inputs bound to the copy's layers", async () => {
    const engine = await lowerThird();
    const { id } = await run<{ id: string }>(engine, 'comp.duplicate', { comp: 'Lower third' });
    const copy = engine.document.items.find((i): i is Composition => i.id === id)!;
    const bar = copy.layers.find((l) => l.name === 'Bar')!;
    expect(copy.inputs!.find((i) => i.name === 'accent')!.bindings).toEqual([
      { layer: bar.id, property: 'solid.color' },
    ]);
  });

  it('a project with inputs and props round-trips through its file; one without opens unchanged', async () => {
    const engine = await lowerThird();
    await run(engine, 'renderQueue.add', {
      comp: 'Lower third',
      output: '/tmp/b_[#].png',
      props: { name: 'Grace' },
    });
    const text = serializeProject(engine.document);
    const reopened = parseProject(text, '/tmp/t.ecproj');
    expect(serializeProject(reopened)).toBe(text);
    const old = JSON.parse(text) as Project;
    delete comp(old).inputs;
    delete old.renderQueue[0]!.props;
    expect(comp(parseProject(JSON.stringify(old), '/tmp/o.ecproj')).inputs).toBeUndefined();
  });
});

describe('a footage input in a project file', () => {
  it('keeps its default and the queued value relative beside the footage, and finds them when the folder moves', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'clips'));
    for (const [name, color] of [
      ['a.png', '#ff0000'],
      ['b.png', '#00ff00'],
    ] as const)
      await sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
        .png()
        .toFile(join(dir, 'clips', name));
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'C', width: 8, height: 8, duration: 1 });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', {
      path: join(dir, 'clips', 'a.png'),
    });
    const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { footage });
    await run(engine, 'input.define', {
      name: 'clip',
      type: 'footage',
      bind: [{ layer, property: 'source' }],
    });
    await run(engine, 'renderQueue.add', {
      comp: 'C',
      output: join(dir, 'out', 'f_[##].png'),
      props: { clip: join(dir, 'clips', 'b.png') },
    });
    const text = serializeProject(engine.document, join(dir, 'p.ecproj'));
    const saved = JSON.parse(text) as Project;
    const comp = saved.items.find((i): i is Composition => i.type === 'composition')!;
    expect(comp.inputs![0]!.default).toBe(join('clips', 'a.png'));
    expect(saved.renderQueue[0]!.props).toEqual({ clip: join('clips', 'b.png') });
    // Opened from another folder: resolved there, as the footage's own path is.
    const moved = join(dir, 'moved');
    const opened = parseProject(text, join(moved, 'p.ecproj'));
    const openedComp = opened.items.find((i): i is Composition => i.type === 'composition')!;
    expect(openedComp.inputs![0]!.default).toBe(join(moved, 'clips', 'a.png'));
    expect(opened.renderQueue[0]!.props).toEqual({ clip: join(moved, 'clips', 'b.png') });
  });
});
