/** The engine alone orders edits: groups hold the order, others wait (bounded), nothing acknowledged is lost. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineCommand,
  Engine,
  engineCommands,
  READ_ONLY,
  type AnyCommand,
  type EditGroup,
} from '../../../src/engine/index.js';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';
import { newEngine, run } from '../../helpers/engine.js';

const names = (engine: Engine) => engine.document.items.map((i) => i.name);
const comp = (name: string) => ({ name, width: 8, height: 8 });

/** Opens a group and returns it with a way to end it later, as a bridge connection does. */
async function open(engine: Engine, label: string): Promise<EditGroup> {
  const begun = await engine.beginGroup(label);
  if (!begun.ok) expect.fail(`beginGroup failed: ${begun.error.code}`);
  return begun.group;
}

describe('edit order', () => {
  it('an edit made while another caller’s group is open waits, and survives that group’s rollback', async () => {
    const engine = newEngine();
    const group = await open(engine, 'A');
    await run(engine, 'comp.new', comp('inside A'), { group });
    // Caller B: acknowledged only after A's group has ended, so A's rollback cannot take it away.
    const b = engine.execute('comp.new', comp('from B'));
    let bDone = false;
    void b.then(() => (bDone = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(bDone).toBe(false);
    expect(await engine.endGroup(group, false)).toBe(false);
    expect(await b).toMatchObject({ ok: true });
    expect(names(engine)).toEqual(['from B']);
  });

  it('an undo waits for an open group and then reverts it whole', async () => {
    const engine = newEngine();
    await run(engine, 'comp.new', comp('before'));
    const group = await open(engine, 'Two');
    await run(engine, 'comp.new', comp('g1'), { group });
    const undo = engine.execute('edit.undo', {});
    await run(engine, 'comp.new', comp('g2'), { group });
    await engine.endGroup(group, true);
    expect(await undo).toMatchObject({ ok: true, result: { undone: 'Two' } });
    expect(names(engine)).toEqual(['before']);
  });

  it('refuses undo and redo as steps of a group, leaving the group intact', async () => {
    const engine = newEngine();
    await run(engine, 'comp.new', comp('before'));
    const result = await engine.group('G', async (group) => {
      await run(engine, 'comp.new', comp('in'), { group });
      const undo = await engine.execute('edit.undo', {}, { group });
      expect(undo).toMatchObject({ ok: false, error: { code: 'bad_argument' } });
      return true;
    });
    expect(result).toEqual({ ok: true, committed: true });
    expect(names(engine)).toEqual(['before', 'in']);
  });

  it('gives up with busy after the bounded wait, naming what holds the order; nothing changes', async () => {
    const engine = new Engine({ commands: engineCommands(), ports: createNodePorts(), editWaitMs: 50 });
    const group = await open(engine, 'Long batch');
    const before = engine.document;
    const r = await engine.execute('comp.new', comp('late'));
    expect(r).toMatchObject({ ok: false, error: { code: 'busy' } });
    if (!r.ok) {
      expect(r.error.message).toContain('Long batch');
      expect(r.error.remediation.length).toBeGreaterThan(0);
    }
    const second = await engine.beginGroup('Other');
    expect(second).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(engine.document).toBe(before);
    await engine.endGroup(group, true);
    await run(engine, 'comp.new', comp('now'));
    expect(names(engine)).toEqual(['now']);
  });

  it('a waiting edit whose signal aborts is cancelled and never runs', async () => {
    const engine = newEngine();
    const group = await open(engine, 'G');
    const ac = new AbortController();
    const waiting = engine.execute('comp.new', comp('never'), { signal: ac.signal });
    ac.abort();
    expect(await waiting).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    await engine.endGroup(group, true);
    expect(names(engine)).toEqual([]);
  });

  it('serves waiting callers first come, first served', async () => {
    const engine = newEngine();
    const group = await open(engine, 'G');
    const order = ['one', 'two', 'three'].map((n) => engine.execute('comp.new', comp(n)));
    await engine.endGroup(group, true);
    await Promise.all(order);
    expect(names(engine)).toEqual(['one', 'two', 'three']);
  });

  it('a step sent after its group ended is refused, not applied outside it', async () => {
    const engine = newEngine();
    const group = await open(engine, 'G');
    await engine.endGroup(group, false);
    const late = await engine.execute('comp.new', comp('late'), { group });
    expect(late).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(names(engine)).toEqual([]);
  });

  it('a group that opened another project and then fails puts the old project and its history back', async () => {
    const engine = newEngine();
    await run(engine, 'comp.new', comp('kept'));
    const before = engine.document;
    const result = await engine.group('Replace', async (group) => {
      await run(engine, 'project.new', { name: 'Other' }, { group });
      await run(engine, 'comp.new', comp('other'), { group });
      return false;
    });
    expect(result).toEqual({ ok: true, committed: false });
    expect(engine.document).toBe(before);
    await run(engine, 'edit.undo');
    expect(names(engine)).toEqual([]);
  });

  it('a command that is not an edit starts synchronously, even after idle time (a render takes its snapshot then)', async () => {
    let started = false;
    const snap = defineCommand({
      id: 'test.snapshot',
      title: 'Snapshot',
      category: 'Test',
      description: 'records that it ran',
      params: z.strictObject({}),
      pathParams: {},
      annotations: READ_ONLY,
      mutates: false,
      run: () => {
        started = true;
        return null;
      },
    }) as AnyCommand;
    const engine = new Engine({ commands: [...engineCommands(), snap], ports: createNodePorts() });
    await new Promise((r) => setTimeout(r, 30));
    const running = engine.execute('test.snapshot', {});
    expect(started).toBe(true);
    await running;
  });
});

describe('project openings', () => {
  it('counts each replaced project, and a rolled-back group brings its project’s opening back', async () => {
    const engine = newEngine();
    expect(engine.opening).toBe(0);
    await run(engine, 'comp.new', comp('edit'));
    expect(engine.opening).toBe(0);
    await run(engine, 'project.new', {});
    expect(engine.opening).toBe(1);
    await run(engine, 'project.close', {});
    expect(engine.opening).toBe(2);
    const group = await open(engine, 'Replace');
    await run(engine, 'project.new', { name: 'Other' }, { group });
    expect(engine.opening).toBe(3);
    await engine.endGroup(group, false);
    expect(engine.opening).toBe(2);
  });
});
