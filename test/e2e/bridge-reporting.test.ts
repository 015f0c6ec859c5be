/**
 * What bridge mode tells the agent and the person, end to end with real `app` and `mcp --bridge` processes:
 * both confinement layers in doc_inspect/capabilities, refusals naming the process to restart, the token
 * remedy when the client looked in the wrong place, and the help text.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { AppProcess, call, mcpClient, run } from './bridge-helpers.js';

describe('mcp --bridge reporting', () => {
  it('reports both confinement layers and what both allow when both sides have roots', async () => {
    const dir = await tempDir();
    const real = await realpath(dir);
    await mkdir(join(dir, 'out'));
    const tokenFile = join(dir, 'app.token');
    const app = await AppProcess.start([
      '--port',
      '0',
      '--token-file',
      tokenFile,
      '--automation-write-root',
      join(dir, 'out'),
    ]);
    const { client } = await mcpClient([
      '--bridge',
      String(app.port),
      '--bridge-token-file',
      tokenFile,
      '--automation-write-root',
      dir,
    ]);
    const body = (await call(client, 'capabilities', {})).body;
    expect(body.confinement).toEqual({
      confined: true,
      readRoots: [],
      writeRoots: [join(real, 'out')],
      mcp: { confined: true, readRoots: [], writeRoots: [real] },
      app: { confined: true, readRoots: [], writeRoots: [join(real, 'out')] },
    });
    expect((await call(client, 'doc_inspect', {})).body.confinement).toEqual(body.confinement);
    // Inside the MCP root but outside the app's: the app refuses, naming its own flag.
    const r = await run(client, 'project.save', { path: join(dir, 'here.ecproj') });
    expect(r).toMatchObject({ isError: true, body: { code: 'path_outside_roots' } });
    expect(r.body.remediation).toContain('effectcraft-cli app --automation-write-root');
    expect((await run(client, 'project.save', { path: join(dir, 'out', 'ok.ecproj') })).isError).toBe(false);
  });

  it('shows the bridge flags in the usage line of mcp --help', () => {
    const r = spawnSync(process.execPath, [cliPath, 'mcp', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const usage = r.stdout.split('\n')[0] ?? '';
    expect(usage).toContain('--bridge PORT');
    expect(usage).toContain('--bridge-token-file PATH');
  });

  it('names the token file it looked at and --bridge-token-file when the app used --token-file', async () => {
    const runtime = await tempDir();
    const env = { XDG_RUNTIME_DIR: runtime };
    const app = await AppProcess.start(
      ['--port', '0', '--token-file', join(runtime, 'elsewhere.token')],
      env,
    );
    const { client } = await mcpClient(['--bridge', String(app.port)], env);
    const r = await run(client, 'comp.new', { name: 'X', width: 8, height: 8 });
    expect(r).toMatchObject({ isError: true, body: { code: 'app_unavailable' } });
    const looked = join(runtime, 'effectcraft', `bridge-${app.port}.token`);
    expect(r.body.message).toContain(looked);
    expect(r.body.remediation).toContain(`--bridge ${app.port} --bridge-token-file`);
    // capabilities still answers, with the app's roots reported as unknown.
    const caps = await call(client, 'capabilities', {});
    expect(caps.isError).toBe(false);
    expect(caps.body.confinement).toMatchObject({ confined: false, app: null });
  });
});
