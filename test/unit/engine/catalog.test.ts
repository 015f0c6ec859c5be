import { describe, expect, it } from 'vitest';
import { fails, newEngine, run } from '../../helpers/engine.js';

const REQUIRED_IDS = [
  'project.new',
  'project.open',
  'project.save',
  'project.incrementAndSave',
  'project.close',
  'file.import',
  'file.runScript',
  'file.executeFile',
  'file.revealInFinder',
  'comp.new',
  'comp.setActive',
  'comp.setSettings',
  'comp.duplicate',
  'comp.delete',
  'layer.addSolid',
  'layer.addText',
  'layer.addShape',
  'layer.addFootage',
  'layer.addNull',
  'layer.addAdjustment',
  'layer.addPrecomp',
  'layer.delete',
  'layer.duplicate',
  'layer.move',
  'layer.setParent',
  'layer.setBlendMode',
  'layer.setTrackMatte',
  'layer.setTiming',
  'layer.setTimeMap',
  'property.set',
  'property.setKeyframe',
  'property.removeKeyframe',
  'effect.add',
  'effect.set',
  'effect.remove',
  'edit.undo',
  'edit.redo',
  'renderQueue.add',
  'renderQueue.remove',
  'renderQueue.list',
  'renderQueue.clear',
];

describe('command catalog', () => {
  it('has every required command with title, category, annotations and a schema', () => {
    const engine = newEngine();
    const list = engine.list({ schemas: true });
    const ids = list.map((c) => c.id);
    for (const id of REQUIRED_IDS) expect(ids).toContain(id);
    for (const c of list) {
      expect(c.title.length).toBeGreaterThan(0);
      expect(c.category.length).toBeGreaterThan(0);
      expect(typeof c.annotations.readOnlyHint).toBe('boolean');
      expect((c.params as { type?: string }).type).toBe('object');
    }
  });

  it('generates JSON Schemas from the same zod schemas that validate', () => {
    const schema = newEngine()
      .list({ schemas: true, filter: 'comp.new' })
      .find((c) => c.id === 'comp.new')!.params as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(schema.properties)).toEqual([
      'name',
      'width',
      'height',
      'frameRate',
      'duration',
      'backgroundColor',
    ]);
    expect(schema.required).toEqual(['width', 'height']);
    expect(schema.additionalProperties).toBe(false);
  });

  it('filters by text and by enabled state, and says why a command is disabled', async () => {
    const engine = newEngine();
    const undo = engine.list({ filter: 'edit.' });
    expect(undo.map((c) => c.id)).toEqual(['edit.undo', 'edit.redo']);
    expect(engine.list({ filter: 'EDIT.UNDO' }).map((c) => c.id)).toEqual(['edit.undo']);
    expect(undo[0]!.enabled).toBe(false);
    expect(undo[0]!.disabledReason).toMatch(/nothing to undo/i);
    const enabled = engine.list({ enabledOnly: true }).map((c) => c.id);
    expect(enabled).not.toContain('edit.undo');
    expect(enabled).not.toContain('layer.addSolid');
    await run(engine, 'comp.new', { width: 10, height: 10 });
    expect(engine.list({ enabledOnly: true }).map((c) => c.id)).toContain('layer.addSolid');
  });

  it('rejects unknown params naming the key and the accepted ones, leaving the document unchanged', async () => {
    const engine = newEngine();
    const before = engine.document;
    const r = await engine.execute('comp.new', { width: 10, height: 10, colour: 'red' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_argument');
    expect(r.error.message).toContain('"colour"');
    expect(r.error.message).toContain('backgroundColor');
    expect(engine.document).toBe(before);
  });

  it('reports missing and mistyped params and unknown commands', async () => {
    const engine = newEngine();
    expect(await fails(engine, 'comp.new', { width: 10 })).toBe('bad_argument');
    expect(await fails(engine, 'comp.new', { width: 'wide', height: 10 })).toBe('bad_argument');
    expect(await fails(engine, 'comp.nwe', {})).toBe('unknown_command');
    expect(await fails(engine, 'edit.undo', {})).toBe('command_disabled');
    expect(await fails(engine, 'layer.addNull', {})).toBe('command_disabled');
    // A disabled command's remedy says what to do, not its reason again.
    for (const id of ['edit.undo', 'edit.redo']) {
      const r = await engine.execute(id, {});
      if (!r.ok) expect(r.error.message).not.toContain(r.error.remediation);
      expect(r.ok).toBe(false);
    }
  });

  it('requires absolute file paths without NUL bytes', async () => {
    const engine = newEngine();
    expect(await fails(engine, 'project.open', { path: 'relative/p.ecproj' })).toBe('bad_argument');
    expect(await fails(engine, 'project.open', { path: '/tmp/a\0b.ecproj' })).toBe('bad_argument');
  });

  it('never throws on unexpected failures: they become tool_failed with the document unchanged', async () => {
    const logged: string[] = [];
    const { Engine, engineCommands, defineCommand, EDIT } = await import('../../../src/engine/index.js');
    const { createNodePorts } = await import('../../../src/node-io/engine-ports.js');
    const { z } = await import('zod');
    const boom = defineCommand({
      id: 'test.boom',
      title: 'Boom',
      category: 'Test',
      description: 'edits then throws',
      params: z.strictObject({}),
      pathParams: {},
      annotations: EDIT,
      mutates: true,
      run(ctx) {
        ctx.update((d) => void (d.name = 'changed'));
        throw new TypeError('kaboom');
      },
    });
    const engine = new Engine({
      commands: [...engineCommands(), boom],
      ports: createNodePorts(),
      logError: (m) => logged.push(m),
    });
    const r = await engine.execute('test.boom', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'tool_failed' } });
    expect(JSON.stringify(r)).not.toContain('at ');
    expect(engine.document.name).toBe('Untitled');
    expect(engine.view.canUndo).toBe(false);
    expect(logged[0]).toContain('kaboom');
  });
});

describe('command traits', () => {
  it('every catalog entry carries complete traits; the long and background ones are declared on the command', async () => {
    const { createSession } = await import('../../../src/session.js');
    const list = createSession().engine.list();
    for (const entry of list) {
      expect(Object.keys(entry.traits).sort()).toEqual([
        'backgroundJob',
        'detachesFromCallOrder',
        'longRunning',
      ]);
    }
    const byId = new Map(list.map((e) => [e.id, e.traits]));
    expect(byId.get('renderQueue.render')).toEqual({
      longRunning: true,
      backgroundJob: { waitParam: 'wait' },
      detachesFromCallOrder: true,
    });
    for (const id of ['frame.preview', 'frame.save', 'script.run', 'file.runScript'])
      expect(byId.get(id)?.longRunning).toBe(true);
    expect(byId.get('comp.new')).toEqual({
      longRunning: false,
      backgroundJob: null,
      detachesFromCallOrder: false,
    });
  });
});
