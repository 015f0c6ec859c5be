/** `effectcraft-cli mcp` flags: help, usage errors, and confinement roots passed through to the tools. */
import { spawnSync } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { RawServer } from './mcp-helpers.js';

const run = (...args: string[]) =>
  spawnSync(process.execPath, [cliPath, 'mcp', ...args], { encoding: 'utf8', input: '' });

describe('effectcraft-cli mcp flags', () => {
  it('prints help', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--automation-write-root');
  });

  it('exits 2 on a bad port or a missing root, writing nothing on stdout', async () => {
    const port = run('--http', 'abc');
    expect(port.status).toBe(2);
    expect(port.stdout).toBe('');
    const root = run('--automation-read-root', join(await tempDir(), 'missing'));
    expect(root.status).toBe(2);
    expect(root.stdout).toBe('');
    expect(root.stderr).toContain('missing');
  });

  it('exits 0 at once when stdin is closed without a request', () => {
    expect(run().status).toBe(0);
  });

  it('confines the session: tools report the roots and refuse scripts', async () => {
    const dir = await tempDir('ec-mcp-root-');
    const s = new RawServer(['--automation-read-root', dir, '--automation-write-root', dir]);
    await s.initialize();
    const inspect = await s.request(1, 'tools/call', { name: 'doc_inspect', arguments: {} });
    const real = await realpath(dir);
    expect(inspect.result?.structuredContent).toMatchObject({
      confinement: { confined: true, readRoots: [real], writeRoots: [real] },
    });
    const script = await s.request(2, 'tools/call', { name: 'run_script', arguments: { code: 'return 1' } });
    expect(script.result).toMatchObject({
      isError: true,
      structuredContent: { code: 'refused_while_confined' },
    });
    const outside = await s.request(3, 'tools/call', {
      name: 'command_run',
      arguments: { id: 'project.save', params: { path: '/tmp/outside-root.ecproj' } },
    });
    expect(outside.result).toMatchObject({
      isError: true,
      structuredContent: { code: 'path_outside_roots' },
    });
  });
});
