// Every shipped command carries a short example that is a valid call, and docs/commands.md is generated from the
// same catalog: an agent reading command_list and a person reading the docs see the same words and examples.
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredPaths } from '../../../src/engine/catalog.js';
import { catalogMarkdown } from '../../../src/engine/catalog-markdown.js';
import { createSession } from '../../../src/session.js';

const engine = createSession({}).engine;
const ids = engine.commands().map((c) => c.id);

describe('command examples', () => {
  it.each(ids)('%s has an example its schema accepts', (id) => {
    const [entry] = engine.list({ ids: [id], schemas: true });
    expect(entry?.example, `${id} has no example`).toBeTypeOf('object');
    // The schema, not the document: most examples name layers of a document that has them.
    const command = engine.command(id)!;
    const parsed = command.params.safeParse(entry!.example);
    expect(parsed.success ? null : parsed.error.issues).toBeNull();
    for (const p of declaredPaths(command, parsed.data)) expect(isAbsolute(p.path), p.param).toBe(true);
  });

  it('come with the schema, so the plain catalog stays one page', () => {
    const [entry] = engine.list({ ids: ['property.set'], schemas: true });
    expect(entry?.example).toEqual({ layer: 'Hello', property: 'transform.opacity', value: 50 });
    expect(engine.list({ ids: ['property.set'] })[0]?.example).toBeUndefined();
  });
});

describe('docs/commands.md', () => {
  it('is what `npm run docs:commands` writes from the catalog now', () => {
    const onDisk = readFileSync(new URL('../../../docs/commands.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(catalogMarkdown(engine.list({ schemas: true })));
  });

  it('shows each command with its param words and example', () => {
    const page = catalogMarkdown(engine.list({ schemas: true }));
    expect(page).toContain('### `comp.new`: New Composition');
    expect(page).toContain('| `duration` |  | Seconds, above 0 and up to 86400');
    expect(page).toContain('{"layer":"Hello","property":"transform.opacity","value":50}');
    for (const id of ids) expect(page).toContain(`### \`${id}\``);
  });
});
