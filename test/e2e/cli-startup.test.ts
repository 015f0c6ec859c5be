/**
 * Start-up of the built CLI: commands that do not use Redis never load BullMQ and its Redis client (a quarter
 * of a second of module loading, which a cold `still` or a pipeline's many short runs would pay each time).
 * A preload reports, at exit, whether any BullMQ module was loaded; `worker --redis` shows the report works.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const SAMPLE = join(repoRoot, 'fixtures/sample/sample.ecproj');

/** Runs the CLI with `args` and the preload; resolves with whether BullMQ was loaded. */
async function loadsBullmq(args: string[], stdin = ''): Promise<boolean> {
  const dir = await tempDir('ec-startup-');
  const preload = join(dir, 'report.cjs');
  await writeFile(
    preload,
    `process.on('exit', () => process.stderr.write('\\nbullmq loaded: ' + Object.keys(require.cache).some((k) => k.includes('/node_modules/bullmq/')) + '\\n'));`,
  );
  const child = spawn(process.execPath, ['--require', preload, cliPath, ...args], {
    cwd: dir,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  child.stdin.end(stdin);
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  await new Promise((resolve) => child.on('close', resolve));
  const m = /bullmq loaded: (true|false)/.exec(err);
  expect(m, err).not.toBeNull();
  return m![1] === 'true';
}

describe('CLI start-up', () => {
  it('loads BullMQ for none of --version, --help, inspect, still, a local render and mcp', async () => {
    const out = await tempDir('ec-startup-out-');
    for (const args of [
      ['--version'],
      ['render', '--help'],
      ['inspect', SAMPLE],
      ['still', SAMPLE, '--frame', '0', '-o', join(out, 'still.png')],
      ['render', SAMPLE, '--output-dir', out],
      ['mcp'],
    ])
      expect(await loadsBullmq(args), args.join(' ')).toBe(false);
  }, 120_000);

  it('loads it for worker --redis (the report is not blind)', async () => {
    expect(await loadsBullmq(['worker', '--redis', 'redis://127.0.0.1:1'])).toBe(true);
  }, 30_000);
});
