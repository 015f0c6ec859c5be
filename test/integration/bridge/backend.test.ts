import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RENDER_NOTE } from '../../../src/bridge/backend.js';
import { createConfinement } from '../../../src/confinement/index.js';
import { defineCommand, EDIT, type AnyCommand } from '../../../src/engine/index.js';
import { createSession } from '../../../src/session.js';
import { connect, startApp, tempDir } from './harness.js';

describe('bridge backend against an in-process app', () => {
  it('runs commands in the app and lists its catalog', async () => {
    const app = await startApp(await tempDir());
    const events: unknown[] = [];
    const { backend, client } = connect(app, {
      onEvent: (method, params) => events.push({ method, params }),
    });
    const made = await backend.execute('comp.new', { name: 'Main', width: 320, height: 180 });
    expect(made).toMatchObject({ ok: true, result: { id: expect.any(String) } });
    expect(app.engine.document.items.map((i) => i.name)).toEqual(['Main']);
    expect(client.hello).toMatchObject({ protocol: 1, capabilities: { ui: false, commands: true } });
    const list = await backend.list({ filter: 'comp.new', schemas: true });
    expect(list.map((c) => c.id)).toEqual(['comp.new']);
    expect(list[0]?.params).toBeTypeOf('object');
    await backend.execute('project.inspect', {}); // a round trip after the edit, so its event has arrived
    expect(events).toContainEqual({
      method: 'event.documentChanged',
      params: { label: 'New Composition', revision: 1 },
    });
  });

  it('returns the app’s errors with their code and checks params before sending', async () => {
    const app = await startApp(await tempDir());
    const { backend } = connect(app);
    expect(await backend.execute('layer.delete', { layer: 'nope' })).toMatchObject({ ok: false });
    expect(await backend.execute('no.such', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_command' },
    });
    const bad = await backend.execute('comp.new', { width: 10, height: 10, bogus: 1 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_argument' } });
  });

  it('answers UI calls with not_configured when the app serves no studio', async () => {
    const app = await startApp(await tempDir());
    const { backend } = connect(app);
    expect(await backend.ui('ui_click', { x: 1, y: 2 })).toMatchObject({
      ok: false,
      error: { code: 'not_configured' },
    });
  });

  it('makes a group one undo step in the app, and rolls it back there when it fails', async () => {
    const app = await startApp(await tempDir());
    const { backend } = connect(app);
    const committed = await backend.group('Two comps', async (steps) => {
      await steps.execute('comp.new', { name: 'A', width: 10, height: 10 });
      await steps.execute('comp.new', { name: 'B', width: 10, height: 10 });
      return true;
    });
    expect(committed).toEqual({ ok: true, committed: true });
    expect(app.engine.document.items).toHaveLength(2);
    await backend.execute('edit.undo', {});
    expect(app.engine.document.items).toHaveLength(0);

    const rolledBack = await backend.group('Fails', async (steps) => {
      await steps.execute('comp.new', { name: 'C', width: 10, height: 10 });
      return (await steps.execute('layer.delete', { layer: 'missing' })).ok;
    });
    expect(rolledBack).toEqual({ ok: true, committed: false });
    expect(app.engine.document.items).toHaveLength(0);
  });

  it('rolls a group back in the app when the connection drops, and does not send its later steps', async () => {
    const app = await startApp(await tempDir());
    const { backend, client } = connect(app);
    const ok = await backend.group('Dropped', async (steps) => {
      await steps.execute('comp.new', { name: 'A', width: 10, height: 10 });
      // Drop the link from the app's side, as if the app were restarted.
      const closing = app.host.close();
      await closing;
      const after = await steps.execute('comp.new', { name: 'B', width: 10, height: 10 });
      expect(after).toMatchObject({ ok: false, error: { code: 'app_unavailable' } });
      return true;
    });
    expect(ok).toEqual({ ok: true, committed: false });
    expect(app.engine.document.items).toHaveLength(0);
    expect(client.connected).toBe(false);
  });

  it('runs concurrent groups from one backend one after the other, each one undo step', async () => {
    const app = await startApp(await tempDir());
    const { backend } = connect(app);
    const twoComps = (prefix: string, ok: boolean) =>
      backend.group(prefix, async (steps) => {
        await steps.execute('comp.new', { name: `${prefix}1`, width: 8, height: 8 });
        await new Promise((r) => setTimeout(r, 20));
        await steps.execute('comp.new', { name: `${prefix}2`, width: 8, height: 8 });
        return ok;
      });
    const [a, b] = await Promise.all([twoComps('A', true), twoComps('B', false)]);
    expect([a, b]).toEqual([
      { ok: true, committed: true },
      { ok: true, committed: false },
    ]);
    expect(app.engine.document.items.map((i) => i.name)).toEqual(['A1', 'A2']);
    await backend.execute('edit.undo', {});
    expect(app.engine.document.items).toHaveLength(0);
  });

  it('starts background jobs (from the catalog trait, whatever the id) with their wait param false', async () => {
    const seen: unknown[] = [];
    const job = (id: string, waitParam: string) =>
      defineCommand({
        id,
        title: 'Job',
        category: 'Test',
        description: 'test stand-in',
        params: z.strictObject({ [waitParam]: z.boolean().optional() }),
        pathParams: {},
        annotations: EDIT,
        mutates: false,
        traits: { backgroundJob: { waitParam }, longRunning: true },
        run: (_ctx, p) => {
          seen.push(p);
          return { started: true };
        },
      }) as AnyCommand;
    const plain = defineCommand({
      id: 'test.plain',
      title: 'Plain',
      category: 'Test',
      description: 'no background job',
      params: z.strictObject({ wait: z.boolean().optional() }),
      pathParams: {},
      annotations: EDIT,
      mutates: false,
      run: (_ctx, p) => {
        seen.push(p);
        return {};
      },
    }) as AnyCommand;
    const extra = [job('test.encode', 'block'), plain];
    const app = await startApp(await tempDir(), { extraCommands: extra });
    const { backend } = connect(app, { commands: [...createSession().engine.commands(), ...extra] });
    const r = await backend.execute('test.encode', {});
    expect(r).toMatchObject({ ok: true, warnings: [RENDER_NOTE] });
    await backend.execute('test.encode', { block: false });
    await backend.execute('test.plain', {});
    expect(seen).toEqual([{ block: false }, { block: false }, {}]);
    expect(backend.traits('renderQueue.render')).toMatchObject({ backgroundJob: { waitParam: 'wait' } });
  });

  it('applies confinement before forwarding, using the app’s live document', async () => {
    const dir = await tempDir();
    const app = await startApp(dir);
    const confinement = createConfinement({ readRoots: [dir], writeRoots: [dir] });
    const { backend } = connect(app, { confinement });
    await backend.execute('comp.new', { name: 'A', width: 10, height: 10 });
    const outside = await backend.execute('project.save', { path: '/etc/effectcraft-test.ecproj' });
    expect(outside).toMatchObject({ ok: false, error: { code: 'path_outside_roots' } });
    const script = await backend.execute('script.run', { code: '1' });
    expect(script).toMatchObject({ ok: false, error: { code: 'refused_while_confined' } });
    const unknown = await backend.execute('not.local', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'refused_while_confined' } });
    expect(await backend.execute('project.save', { path: `${dir}/ok.ecproj` })).toMatchObject({ ok: true });
  });

  it('reports both confinement layers: its own roots and the roots the app sent in hello', async () => {
    const dir = await tempDir();
    const mcpRoots = createConfinement({ writeRoots: [dir] }).info;
    const appInfo = { confined: true, readRoots: [], writeRoots: [`${dir}/out`] };
    const app = await startApp(dir, {
      host: {
        identity: {
          app: 'test app',
          version: '0.0.0',
          capabilities: { ui: false, commands: true, render: false },
          confinement: appInfo,
        },
      },
    });
    const { backend } = connect(app);
    expect(await backend.describeConfinement(mcpRoots)).toEqual({
      confined: true,
      readRoots: [],
      writeRoots: [`${dir}/out`],
      mcp: mcpRoots,
      app: appInfo,
    });
  });

  it('reports the app layer as unknown when the app does not send it or cannot be reached', async () => {
    const dir = await tempDir();
    const app = await startApp(dir); // its hello has no confinement field (an older or third-party app)
    const off = { confined: false, readRoots: [], writeRoots: [] };
    const { backend } = connect(app);
    const silent = await backend.describeConfinement(off);
    expect(silent).toMatchObject({ ...off, mcp: off, app: null });
    expect(silent).toHaveProperty('appUnknown');
    await app.stop();
    const { backend: orphan } = connect(app);
    expect(await orphan.describeConfinement(off)).toMatchObject({ ...off, app: null });
  });
});
