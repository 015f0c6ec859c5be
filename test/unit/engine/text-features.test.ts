// The text layer's OpenType feature switches (kerning, ligatures, contextualAlternates): on by default, set
// by layer.addText and property.set (with undo), booleans only, and on for project files written before them.
import { describe, expect, it } from 'vitest';
import { parseProject, serializeProject } from '../../../src/engine/project-file.js';
import type { Composition, LayerSource } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';

type TextSource = Extract<LayerSource, { kind: 'text' }>;
const SWITCHES = ['kerning', 'ligatures', 'contextualAlternates'] as const;

async function setup(params: object = {}) {
  const engine = newEngine();
  await run(engine, 'comp.new', { width: 200, height: 100 });
  await run(engine, 'layer.addText', { text: '1920 x 1080', name: 'T', ...params });
  const source = () => (engine.document.items[0] as Composition).layers[0]!.source as TextSource;
  return { engine, source };
}

describe('text feature switches', () => {
  it('are on by default, as in browsers', async () => {
    const { source } = await setup();
    expect(source()).toMatchObject({ kerning: true, ligatures: true, contextualAlternates: true });
  });

  it('are set by layer.addText and by property.set, and undone', async () => {
    const { engine, source } = await setup({ ligatures: false });
    expect(source().ligatures).toBe(false);
    for (const key of SWITCHES) {
      await run(engine, 'property.set', { layer: 'T', property: `text.${key}`, value: false });
      expect(source()[key]).toBe(false);
    }
    await run(engine, 'edit.undo');
    expect(source().contextualAlternates).toBe(true);
  });

  it('take only true or false, and are not animatable', async () => {
    const { engine } = await setup();
    expect(await fails(engine, 'property.set', { layer: 'T', property: 'text.kerning', value: 'off' })).toBe(
      'bad_argument',
    );
    expect(await fails(engine, 'layer.addText', { text: 'x', ligatures: 0 })).toBe('bad_argument');
    expect(
      await fails(engine, 'property.setKeyframe', {
        layer: 'T',
        property: 'text.ligatures',
        time: 0,
        value: true,
      }),
    ).toBe('bad_argument');
  });

  it('are on in a project file written before they existed', async () => {
    const { engine } = await setup();
    const saved = JSON.parse(serializeProject(engine.document)) as {
      items: { layers: { source: Record<string, unknown> }[] }[];
    };
    for (const key of SWITCHES) delete saved.items[0]!.layers[0]!.source[key];
    const doc = parseProject(JSON.stringify(saved), '/old.ecproj');
    expect((doc.items[0] as Composition).layers[0]!.source).toMatchObject({
      kerning: true,
      ligatures: true,
      contextualAlternates: true,
    });
  });
});
