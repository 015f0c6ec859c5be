/**
 * The catalog's examples are what a reader of docs/commands.md copies: run in the order the page shows them, they
 * must do what they say, not just pass their schema (test/unit/engine/command-examples.test.ts checks that).
 */
import { describe, expect, it } from 'vitest';
import type { Composition, Engine } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';

const example = (engine: Engine, id: string) => engine.list({ ids: [id], schemas: true })[0]!.example;
const main = (engine: Engine) => engine.document.items.find((i) => i.type === 'composition') as Composition;

describe('command examples, run', () => {
  it('script.run: its example runs and adds the text layer', async () => {
    // It called app.execute, which scripts do not have (app.run): "The script threw: app.execute is not a function".
    const engine = newEngine();
    await run(engine, 'comp.new', example(engine, 'comp.new'));
    const out = await run<{ commands: number }>(engine, 'script.run', example(engine, 'script.run'));
    expect(out.commands).toBe(1);
    expect(main(engine).layers.map((l) => l.source.kind)).toEqual(['text']);
  });

  it('layer.addText makes the layer "Hello" that the layer, property and effect examples name', async () => {
    // A text layer is named "Text" unless named, so every example naming "Hello" failed with not_found.
    const engine = newEngine();
    await run(engine, 'comp.new', example(engine, 'comp.new'));
    await run(engine, 'layer.addText', example(engine, 'layer.addText'));
    for (const id of [
      'property.set',
      'property.setKeyframe',
      'effect.add',
      'layer.setTiming',
      'layer.rename',
    ])
      await run(engine, id, example(engine, id));
    expect(main(engine).layers[0]!.name).toBe('Title');
  });
});
