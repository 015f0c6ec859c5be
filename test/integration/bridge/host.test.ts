import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { readTokenFile } from '../../../src/bridge/auth.js';
import { BridgeClient } from '../../../src/bridge/client.js';
import { connect, rawConnection, startApp, tempDir } from './harness.js';

describe('app host', () => {
  it('runs engine.batch atomically: all steps or none', async () => {
    const app = await startApp(await tempDir());
    const { client } = connect(app);
    const failed = (await client.call('engine.batch', {
      steps: [
        { id: 'comp.new', params: { name: 'A', width: 8, height: 8 } },
        { id: 'layer.delete', params: { layer: 'missing' } },
      ],
    })) as { ok: boolean; steps: Array<{ ok: boolean }> };
    expect(failed.ok).toBe(false);
    expect(failed.steps.map((s) => s.ok)).toEqual([true, false]);
    expect(app.engine.document.items).toHaveLength(0);
    const done = (await client.call('engine.batch', {
      label: 'Two',
      steps: [
        { id: 'comp.new', params: { name: 'A', width: 8, height: 8 } },
        { id: 'comp.new', params: { name: 'B', width: 8, height: 8 } },
      ],
    })) as { ok: boolean };
    expect(done.ok).toBe(true);
    expect(app.engine.document.items).toHaveLength(2);
    await client.call('engine.execute', { id: 'edit.undo', params: {} });
    expect(app.engine.document.items).toHaveLength(0);
  });

  it('rolls back a group left open past its timeout', async () => {
    const app = await startApp(await tempDir(), { host: { groupTimeoutMs: 50 } });
    const { client } = connect(app);
    const { groupId } = await client.call('engine.beginGroup', { label: 'Slow' });
    await client.call('engine.execute', {
      id: 'comp.new',
      params: { name: 'A', width: 8, height: 8 },
      groupId,
    });
    while (app.engine.document.items.length) await new Promise((r) => setTimeout(r, 10));
    await expect(client.call('engine.endGroup', { groupId, commit: true })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('serialises groups from two clients', async () => {
    const app = await startApp(await tempDir());
    const one = connect(app).client;
    const two = connect(app).client;
    const g1 = (await one.call('engine.beginGroup', { label: 'One' })) as { groupId: string };
    let secondBegan = false;
    const g2 = two.call('engine.beginGroup', { label: 'Two' }).then((r) => {
      secondBegan = true;
      return r as { groupId: string };
    });
    await one.call('engine.execute', {
      id: 'comp.new',
      params: { name: 'A', width: 8, height: 8 },
      groupId: g1.groupId,
    });
    expect(secondBegan).toBe(false);
    await one.call('engine.endGroup', { groupId: g1.groupId, commit: true });
    const { groupId } = await g2;
    await two.call('engine.endGroup', { groupId, commit: true });
    expect(secondBegan).toBe(true);
  });

  it('refuses invalid params with bad_argument and unknown methods with unknown_command', async () => {
    const app = await startApp(await tempDir());
    const raw = await rawConnection(app);
    await expect(raw.request('engine.execute', { nope: 1 })).rejects.toMatchObject({ code: 'bad_argument' });
    await expect(raw.request('engine.fly', {})).rejects.toMatchObject({ code: 'unknown_command' });
    // Inherited object keys are no methods.
    await expect(raw.request('constructor', {})).rejects.toMatchObject({ code: 'unknown_command' });
    await expect(raw.request('ui.click', { x: 1, y: 2 })).rejects.toMatchObject({ code: 'not_configured' });
    const { client } = connect(app);
    // The checked client refuses bad params before sending them.
    await expect(client.call('engine.execute', { nope: 1 } as never)).rejects.toMatchObject({
      code: 'bad_argument',
    });
    const view = await client.call('session.view', {});
    expect(view).toMatchObject({ canUndo: false, projectPath: null });
  });

  it('refuses connections beyond its limit with 503', async () => {
    const app = await startApp(await tempDir(), { host: { maxClients: 1 } });
    const first = connect(app).client;
    await first.call('engine.list', { filter: 'comp.new' });
    const second = connect(app).client;
    await expect(second.call('engine.list', {})).rejects.toMatchObject({ code: 'app_unavailable' });
  });

  it('does not hang on a port where something accepts TCP but never answers', async () => {
    const dir = await tempDir();
    const sockets: Socket[] = [];
    const silent = createServer((s) => sockets.push(s));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const app = await startApp(dir); // only for a token file
    const client = new BridgeClient({
      port: (silent.address() as AddressInfo).port,
      tokenPath: app.tokenPath,
      readToken: () => readTokenFile(app.tokenPath),
      connectTimeoutMs: 200,
    });
    try {
      await expect(client.call('engine.list', {})).rejects.toMatchObject({ code: 'app_unavailable' });
    } finally {
      await client.close();
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});
