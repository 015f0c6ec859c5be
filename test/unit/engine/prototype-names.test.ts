/**
 * Names a caller chooses are looked up as own entries only: "constructor", "toString", "__proto__", … are what
 * every object inherits, and must read as unknown names (bad_argument), never pass a known-name check.
 */
import { describe, expect, it } from 'vitest';
import type { Composition } from '../../../src/engine/index.js';
import { createSession } from '../../../src/session.js';
import { fails, run } from '../../helpers/engine.js';

const INHERITED = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

async function setup() {
  // The session's engine: it knows the bundled font families, so fonts are checked too.
  const { engine } = createSession();
  await run(engine, 'comp.new', { width: 64, height: 64, name: 'Main' });
  await run(engine, 'layer.addText', { text: 'Hi', name: 'T' });
  const fx = await run<{ id: string }>(engine, 'effect.add', { layer: 'T', effect: 'gaussianBlur' });
  return { engine, fx: fx.id };
}

/** Runs a command that must fail with `code` and leave the document exactly as it was. */
async function refused(engine: Awaited<ReturnType<typeof setup>>['engine'], id: string, params: object) {
  const before = engine.document;
  const snapshot = structuredClone(before);
  const code = await fails(engine, id, params);
  expect(engine.document).toBe(before);
  expect(engine.document).toEqual(snapshot);
  return code;
}

describe('names inherited from Object.prototype', () => {
  it('are unknown effect types', async () => {
    const { engine } = await setup();
    for (const name of INHERITED)
      expect(await refused(engine, 'effect.add', { layer: 'T', effect: name }), name).toBe('bad_argument');
  });

  it('are unknown effect parameters, in effect.add, effect.set and effects.<id>.<param> paths', async () => {
    const { engine, fx } = await setup();
    for (const name of INHERITED) {
      const params = JSON.parse(`{"${name}": 1}`) as object;
      // zod drops a "__proto__" key from a record, leaving nothing to refuse: the effect is added with defaults.
      if (name !== '__proto__') {
        expect(await refused(engine, 'effect.add', { layer: 'T', effect: 'glow', params }), name).toBe(
          'bad_argument',
        );
        expect(await refused(engine, 'effect.set', { layer: 'T', effect: fx, params }), name).toBe(
          'bad_argument',
        );
      }
      for (const effect of [fx, 'gaussianBlur'])
        expect(
          await refused(engine, 'property.set', {
            layer: 'T',
            property: `effects.${effect}.${name}`,
            value: 1,
          }),
          name,
        ).toBe('bad_argument');
    }
    // Nothing reached the objects every value inherits from.
    expect(Object.hasOwn(Object, 'value')).toBe(false);
    expect(Object.hasOwn(Object.prototype, 'value')).toBe(false);
  });

  it('are unknown property paths, colours, fonts and blend modes', async () => {
    const { engine } = await setup();
    for (const name of INHERITED) {
      for (const property of [name, `text.${name}`, `transform.${name}`])
        expect(await refused(engine, 'property.set', { layer: 'T', property, value: 1 }), property).toBe(
          'bad_argument',
        );
      expect(await refused(engine, 'property.set', { layer: 'T', property: 'text.fill', value: name })).toBe(
        'bad_argument',
      );
      expect(await refused(engine, 'layer.addSolid', { color: name })).toBe('bad_argument');
      expect(await refused(engine, 'layer.addText', { text: 'x', fontFamily: name })).toBe('bad_argument');
      expect(await refused(engine, 'layer.setBlendMode', { layer: 'T', mode: name })).toBe('bad_argument');
    }
  });

  it('are ordinary names for compositions and layers', async () => {
    const { engine } = await setup();
    for (const name of INHERITED) {
      expect(await refused(engine, 'layer.rename', { layer: name, name: 'x' }), name).toBe('not_found');
      await run(engine, 'layer.addNull', { name });
      await run(engine, 'layer.rename', { layer: name, name: `${name}!` });
      await run(engine, 'comp.new', { width: 8, height: 8, name });
      await run(engine, 'comp.setActive', { comp: 'Main' });
    }
    const main = engine.document.items.find((i) => i.name === 'Main') as Composition;
    expect(main.layers.map((l) => l.name)).toEqual([...INHERITED.map((n) => `${n}!`).reverse(), 'T']);
  });

  it('a "__proto__" key in params (template props, effect params) is an unknown name, not dropped', async () => {
    // JSON.parse makes an own "__proto__" key, and zod's records dropped it without a word: renderQueue.add
    // {props: {"__proto__": {...}}} (and render --props with it) was taken as no props at all, exit 0.
    const { engine, fx } = await setup();
    await run(engine, 'input.define', {
      name: 'title',
      type: 'text',
      bind: [{ layer: 'T', property: 'text.text' }],
    });
    const props = JSON.parse('{"__proto__": {"title": "x"}}') as object;
    const add = { comp: 'Main', output: '/tmp/never/out_[#].png', props };
    expect(await refused(engine, 'renderQueue.add', add)).toBe('bad_argument');
    const params = JSON.parse('{"__proto__": {"radius": 5}}') as object;
    expect(await refused(engine, 'effect.set', { layer: 'T', effect: fx, params })).toBe('bad_argument');
    // Other names are still what they were.
    await run(engine, 'renderQueue.add', {
      comp: 'Main',
      output: '/tmp/never/out_[#].png',
      props: { title: 'x' },
    });
  });
});
