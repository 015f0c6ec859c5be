/**
 * Confinement end to end: the built CLI's `mcp` with --automation-read-root / --automation-write-root,
 * spoken to over real stdio (JSON-RPC lines), with real directories and symlinks.
 */
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { RawServer, type Message } from './mcp-helpers.js';

interface Dirs {
  root: string;
  ro: string;
  outside: string;
}

async function dirs(): Promise<Dirs> {
  const base = realpathSync.native(await tempDir('ec-e2e-confine-'));
  const d = { root: join(base, 'root'), ro: join(base, 'ro'), outside: join(base, 'outside') };
  for (const p of Object.values(d)) await mkdir(p);
  await writeFile(join(d.outside, 'secret.js'), 'return 42');
  await symlink(d.outside, join(d.root, 'escape'));
  return d;
}

async function confinedServer(d: Dirs): Promise<RawServer> {
  const server = new RawServer(['--automation-read-root', d.ro, '--automation-write-root', d.root]);
  const init = await server.initialize();
  expect(init.error).toBeUndefined();
  return server;
}

let nextId = 1;
async function call(server: RawServer, name: string, args: Record<string, unknown>): Promise<Message> {
  return server.request(nextId++, 'tools/call', { name, arguments: args });
}

/** The {code, message, remediation} of an isError tool result. */
function refusal(m: Message): { code?: string; message?: string; remediation?: string } {
  expect(m.error).toBeUndefined();
  expect(m.result?.isError).toBe(true);
  return (m.result?.structuredContent ?? {}) as { code?: string };
}

describe('effectcraft-cli mcp while confined', () => {
  it('runs commands inside the roots and refuses paths outside with path_outside_roots', async () => {
    const d = await dirs();
    const server = await confinedServer(d);
    const comp = await call(server, 'execute_command', { id: 'comp.new', params: { width: 32, height: 32 } });
    expect(comp.result?.isError).toBeFalsy();

    const inside = await call(server, 'command_run', {
      id: 'project.save',
      params: { path: join(d.root, 'p.ecproj') },
    });
    expect(inside.result?.isError).toBeFalsy();
    expect(existsSync(join(d.root, 'p.ecproj'))).toBe(true);

    const outside = refusal(
      await call(server, 'execute_command', {
        id: 'project.save',
        params: { path: join(d.outside, 'p.ecproj') },
      }),
    );
    expect(outside.code).toBe('path_outside_roots');
    expect(outside.remediation).toContain('--automation-write-root');

    const viaLink = refusal(
      await call(server, 'command_run', {
        id: 'project.save',
        params: { path: join(d.root, 'escape', 'p.ecproj') },
      }),
    );
    expect(viaLink.code).toBe('path_outside_roots');

    const readOnly = refusal(
      await call(server, 'command_run', { id: 'project.save', params: { path: join(d.ro, 'p.ecproj') } }),
    );
    expect(readOnly.code).toBe('path_outside_roots');

    const dotDot = refusal(
      await call(server, 'command_run', {
        id: 'project.open',
        params: { path: `${d.root}/../outside/x.ecproj` },
      }),
    );
    expect(dotDot.code).toBe('path_outside_roots');

    const nested = refusal(
      await call(server, 'command_run', {
        id: 'renderQueue.add',
        params: {
          comp: 'comp_1',
          output: join(d.root, 'f_[###].png'),
          overflow: [{ dir: join(d.root) }, { dir: join(d.outside) }],
        },
      }),
    );
    expect(nested.code).toBe('path_outside_roots');
    expect(await readdir(d.outside)).toEqual(['secret.js']);
  });

  it('refuses run_script and script commands with refused_while_confined', async () => {
    const d = await dirs();
    const server = await confinedServer(d);
    expect(refusal(await call(server, 'run_script', { code: 'return 1' })).code).toBe(
      'refused_while_confined',
    );
    expect(refusal(await call(server, 'run_script', { path: join(d.outside, 'secret.js') })).code).toBe(
      'refused_while_confined',
    );
    const viaCommand = refusal(
      await call(server, 'execute_command', { id: 'file.runScript', params: { path: join(d.root, 'x.js') } }),
    );
    expect(viaCommand.code).toBe('refused_while_confined');
  });

  it('checks every step of command_batch and batch, and refuses $N references used as paths', async () => {
    const d = await dirs();
    const server = await confinedServer(d);
    const steps = [
      { id: 'comp.new', params: { width: 32, height: 32 } },
      { id: 'project.save', params: { path: join(d.outside, 'b.ecproj') } },
    ];
    const plain = await call(server, 'command_batch', { steps });
    expect(plain.result?.isError).toBe(true);
    const results = (
      plain.result?.structuredContent as { results: { ok: boolean; error?: { code: string } }[] }
    ).results;
    expect(results.map((r) => r.ok)).toEqual([true, false]);
    expect(results[1]?.error?.code).toBe('path_outside_roots');

    const atomic = await call(server, 'batch', { steps });
    expect(atomic.result?.isError).toBe(true);
    expect(JSON.stringify(atomic.result?.structuredContent)).toContain('path_outside_roots');

    // A path computed from an earlier result cannot be vetted before the call.
    const refs = await call(server, 'batch', {
      steps: [
        { id: 'project.save', params: { path: join(d.root, 'r.ecproj') } },
        { id: 'project.open', params: { path: '$0.path' } },
      ],
    });
    expect(refs.result?.isError).toBe(true);
    expect(JSON.stringify(refs.result?.structuredContent)).toContain('refused_while_confined');
    expect(await readdir(d.outside)).toEqual(['secret.js']);
  });

  it('reports the roots in force through capabilities', async () => {
    const d = await dirs();
    const server = await confinedServer(d);
    const caps = await call(server, 'capabilities', {});
    expect(JSON.stringify(caps.result?.structuredContent)).toContain(JSON.stringify([d.root]));
    // Scripts are refused whatever their code while confined: capabilities and command_list say so first.
    const tools = (caps.result?.structuredContent as { tools: { name: string; available: boolean }[] }).tools;
    expect(tools.find((t) => t.name === 'run_script')).toMatchObject({ available: false });
    expect(tools.find((t) => t.name === 'command_run')).toMatchObject({ available: true });
    const listed = await call(server, 'command_list', { filter: 'script' });
    const commands = (
      listed.result?.structuredContent as {
        commands: { id: string; enabled: boolean; disabledReason?: string }[];
      }
    ).commands;
    const run = commands.find((c) => c.id === 'script.run');
    expect(run).toMatchObject({ enabled: false });
    expect(run?.disabledReason).toMatch(/refused while/);
    expect(commands.find((c) => c.id === 'file.runScript')).toMatchObject({ enabled: false });
  });

  it('refuses to start with a root that does not exist, naming the flag', async () => {
    const d = await dirs();
    const child = spawn(
      process.execPath,
      [cliPath, 'mcp', '--automation-write-root', join(d.root, 'missing')],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--automation-write-root');
    expect(stdout).toBe('');
  });
});
