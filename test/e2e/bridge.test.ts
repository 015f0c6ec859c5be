/**
 * Bridge mode end to end: `effectcraft-cli app` and `effectcraft-cli mcp --bridge` as two real processes,
 * driven by the official MCP client over stdio, plus raw WebSockets for the refusals.
 */
import { once } from 'node:events';
import { readdir, realpath, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { AppProcess, appAndClient, call, mcpClient, rawSocket, run } from './bridge-helpers.js';

const UI_TOOLS = ['ui_click', 'ui_key', 'ui_type', 'ui_drag', 'ui_set', 'script_ui', 'control'];

describe('mcp --bridge against effectcraft-cli app', () => {
  it('runs a full session in the app: build, preview, render with wait:false and poll', async () => {
    const dir = await tempDir();
    const { client, app, tokenFile } = await appAndClient(dir);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const t of ['command_run', 'command_list', 'batch', 'render_preview', ...UI_TOOLS])
      expect(names).toContain(t);

    const made = await run(client, 'comp.new', {
      name: 'Main',
      width: 64,
      height: 64,
      frameRate: 10,
      duration: 0.5,
    });
    expect(made.isError).toBe(false);
    expect((await run(client, 'layer.addSolid', { color: '#ff0000' })).isError).toBe(false);

    const preview = await call(client, 'render_preview', { max_side: 32 });
    expect(preview.isError).toBe(false);
    expect(preview.content).toContainEqual(expect.objectContaining({ type: 'image', mimeType: 'image/png' }));

    expect(
      (await run(client, 'renderQueue.add', { comp: 'Main', output: `${dir}/f_[#####].png` })).isError,
    ).toBe(false);
    // No wait given: the bridge starts it in the background and says so.
    const started = await run(client, 'renderQueue.render');
    expect(started.isError).toBe(false);
    expect(JSON.stringify(started.body)).toContain('wait:false');

    let items: Array<{ status: string }> = [];
    for (;;) {
      const list = await run(client, 'renderQueue.list');
      items = (list.body as { items: Array<{ status: string }> }).items;
      if (items.every((i) => i.status !== 'queued' && i.status !== 'rendering')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(items.map((i) => i.status)).toEqual(['done']);
    expect((await readdir(dir)).filter((f) => f.endsWith('.png'))).toHaveLength(5);

    // The headless app has no UI: a clear not_configured, not a hang.
    const click = await call(client, 'ui_click', { x: 10, y: 10 });
    expect(click).toMatchObject({ isError: true, body: { code: 'not_configured' } });

    // The atomic batch rolls back in the app when a step fails.
    const batch = await call(client, 'batch', {
      steps: [
        { id: 'comp.new', params: { name: 'Temp', width: 8, height: 8 } },
        { id: 'layer.delete', params: { layer: 'no such layer' } },
      ],
    });
    expect(batch.body).toMatchObject({ rolled_back: true });
    const inspect = await call(client, 'doc_inspect', {});
    expect(JSON.stringify(inspect.body)).not.toContain('Temp');

    // SIGTERM closes the app cleanly and removes its token file.
    app.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    await expect(stat(tokenFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('recovers on the next call after the app is killed and restarted', async () => {
    const dir = await tempDir();
    const { client, app, tokenFile } = await appAndClient(dir);
    expect((await run(client, 'comp.new', { name: 'Before', width: 8, height: 8 })).isError).toBe(false);

    app.kill('SIGKILL');
    await app.exited;
    const down = await run(client, 'project.inspect');
    expect(down).toMatchObject({ isError: true, body: { code: 'app_unavailable' } });
    expect(String(down.body.remediation)).toContain(`effectcraft-cli app --port ${app.port}`);

    // Same port, same token file path, new token: the client re-reads it.
    await AppProcess.start(['--port', String(app.port), '--token-file', tokenFile]);
    const after = await run(client, 'comp.new', { name: 'After', width: 8, height: 8 });
    expect(after.isError).toBe(false);
    const inspect = await call(client, 'doc_inspect', {});
    expect(JSON.stringify(inspect.body)).toContain('After');
    expect(JSON.stringify(inspect.body)).not.toContain('Before');
  });

  it('applies confinement flags before forwarding to the app', async () => {
    const dir = await tempDir();
    const { client } = await appAndClient(dir, [], ['--automation-write-root', dir]);
    expect((await run(client, 'comp.new', { name: 'C', width: 8, height: 8 })).isError).toBe(false);
    const outside = await run(client, 'project.save', { path: '/tmp/effectcraft-bridge-outside.ecproj' });
    expect(outside).toMatchObject({ isError: true, body: { code: 'path_outside_roots' } });
    const click = await call(client, 'ui_click', { x: 1, y: 1 });
    expect(click).toMatchObject({ isError: true, body: { code: 'refused_while_confined' } });
    const inside = await run(client, 'project.save', { path: join(dir, 'ok.ecproj') });
    expect(inside.isError).toBe(false);
    expect((await stat(join(dir, 'ok.ecproj'))).isFile()).toBe(true);
  });

  it('opens --project at start-up and enforces the app’s own confinement', async () => {
    const dir = await tempDir();
    const { client } = await appAndClient(dir, [
      '--project',
      join(repoRoot, 'fixtures/sample/sample.ecproj'),
      '--automation-read-root',
      repoRoot,
      '--automation-write-root',
      dir,
    ]);
    const list = await run(client, 'renderQueue.list');
    expect((list.body as { items: unknown[] }).items).toHaveLength(1);
    const inspect = await call(client, 'doc_inspect', {});
    expect(JSON.stringify(inspect.body)).toContain('"Sample"');
    // The MCP side is not confined here: the app refuses on its own, and says to restart the app.
    const outside = await run(client, 'project.save', { path: '/tmp/effectcraft-bridge-outside.ecproj' });
    expect(outside).toMatchObject({ isError: true, body: { code: 'path_outside_roots' } });
    expect(outside.body.remediation).toContain('effectcraft-cli app --automation-write-root');
    const script = await run(client, 'script.run', { code: '1' });
    expect(script).toMatchObject({ isError: true, body: { code: 'refused_while_confined' } });
    expect(script.body.remediation).toContain('restart the app (effectcraft-cli app)');
    // doc_inspect and capabilities report the app's roots, not only this process's (unconfined) ones.
    const appLayer = {
      confined: true,
      readRoots: [await realpath(repoRoot)],
      writeRoots: [await realpath(dir)],
    };
    const expected = {
      ...appLayer,
      mcp: { confined: false, readRoots: [], writeRoots: [] },
      app: appLayer,
    };
    expect(inspect.body.confinement).toEqual(expected);
    expect((await call(client, 'capabilities', {})).body.confinement).toEqual(expected);
  });

  it('fails clearly when no app is running', async () => {
    const dir = await tempDir();
    // A port that was free a moment ago and nothing listens on now.
    const probe = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const { client } = await mcpClient([
      '--bridge',
      String(port),
      '--bridge-token-file',
      join(dir, 'none.token'),
    ]);
    const r = await run(client, 'project.inspect');
    expect(r).toMatchObject({ isError: true, body: { code: 'app_unavailable' } });
  });

  it('is refused with a wrong token, and the app runs nothing', async () => {
    const dir = await tempDir();
    const app = await AppProcess.start(['--port', '0', '--token-file', join(dir, 'app.token')]);
    const wrong = join(dir, 'wrong.token');
    await writeFile(wrong, 'a'.repeat(64) + '\n', { mode: 0o600 });
    const { client } = await mcpClient(['--bridge', String(app.port), '--bridge-token-file', wrong]);
    const r = await run(client, 'comp.new', { name: 'X', width: 8, height: 8 });
    expect(r).toMatchObject({ isError: true, body: { code: 'not_configured' } });
    expect((await rawSocket(app.port, {})).status).toBe(401);
    expect(app.stderr).toContain('refused a connection');
    // With the right token, the document shows the refused command never ran.
    const right = await mcpClient([
      '--bridge',
      String(app.port),
      '--bridge-token-file',
      join(dir, 'app.token'),
    ]);
    const inspect = await call(right.client, 'doc_inspect', {});
    expect(inspect.isError).toBe(false);
    expect(JSON.stringify(inspect.body)).not.toContain('"X"');
  });

  it('finds the token in the default place ($XDG_RUNTIME_DIR/effectcraft/bridge-PORT.token)', async () => {
    const runtime = await tempDir();
    const env = { XDG_RUNTIME_DIR: runtime };
    const app = await AppProcess.start(['--port', '0'], env);
    const tokenFile = join(runtime, 'effectcraft', `bridge-${app.port}.token`);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(runtime, 'effectcraft'))).mode & 0o777).toBe(0o700);
    const { client } = await mcpClient(['--bridge', String(app.port)], env);
    expect((await run(client, 'comp.new', { name: 'Default', width: 8, height: 8 })).isError).toBe(false);
  });

  it('refuses a browser Origin even with the right token', async () => {
    const dir = await tempDir();
    const tokenFile = join(dir, 'app.token');
    const app = await AppProcess.start(['--port', '0', '--token-file', tokenFile]);
    const { readFile } = await import('node:fs/promises');
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const evil = await rawSocket(app.port, {
      authorization: `Bearer ${token}`,
      origin: 'http://evil.example',
    });
    expect(evil.status).toBe(403);
    const native = await rawSocket(app.port, { authorization: `Bearer ${token}` });
    expect(native.ws).toBeDefined();
  });

  it('closes a connection that sends an oversized message and keeps serving the bridge', async () => {
    const dir = await tempDir();
    const { client, tokenFile, app } = await appAndClient(dir);
    const { readFile } = await import('node:fs/promises');
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const { ws } = await rawSocket(app.port, { authorization: `Bearer ${token}` });
    const closed = once(ws!, 'close');
    ws!.send(Buffer.alloc(17 * 1024 * 1024, 0x20).toString());
    const [code] = (await closed) as [number];
    expect(code).toBe(1009);
    expect((await run(client, 'comp.new', { name: 'Still', width: 8, height: 8 })).isError).toBe(false);
  });

  it('times out a request the app never answers, without hanging', async () => {
    const dir = await tempDir();
    const tokenFile = join(dir, 'fake.token');
    await writeFile(tokenFile, 'fake\n', { mode: 0o600 });
    // A stand-in app that says hello and then never answers.
    const fake = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(fake, 'listening');
    fake.on('connection', (ws) =>
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as { id: number; method: string };
        if (m.method === 'hello')
          ws.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: m.id,
              result: {
                protocol: 1,
                app: 'fake',
                version: '0',
                capabilities: { ui: false, commands: true, render: false },
              },
            }),
          );
      }),
    );
    try {
      const port = (fake.address() as AddressInfo).port;
      const { client } = await mcpClient([
        '--bridge',
        String(port),
        '--bridge-token-file',
        tokenFile,
        '--bridge-timeout',
        '300',
      ]);
      const r = await run(client, 'project.inspect');
      expect(r).toMatchObject({ isError: true, body: { code: 'timeout' } });
    } finally {
      for (const c of fake.clients) c.terminate();
      await new Promise((r) => fake.close(r));
    }
  });
});
