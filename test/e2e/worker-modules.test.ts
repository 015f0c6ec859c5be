/**
 * What a render worker loads: the renderer and the engine's model types, never zod or immer (the command
 * catalog's and the schemas' libraries, ~60 ms and their memory in every worker before its first frame). The
 * built CLI renders a clip with `--import` of a module-resolution hook registered in every thread (workers
 * inherit it), which logs each module a thread resolves with that thread's id.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session.js';
import { cliPath } from '../helpers/cli.js';
import { hasFfmpeg } from '../helpers/ffmpeg.js';
import { numberedClip } from '../helpers/media.js';
import { run } from '../helpers/queue.js';
import { tempDir } from '../helpers/tmp.js';

/** Writes the hook and the module registering it; returns the latter's path. */
async function resolutionLogger(dir: string, log: string): Promise<string> {
  await writeFile(
    join(dir, 'hooks.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      'let thread = -1;',
      'export function initialize(data) { thread = data.thread; }',
      'export async function resolve(specifier, context, next) {',
      '  const resolved = await next(specifier, context);',
      `  appendFileSync(${JSON.stringify(log)}, thread + ' ' + resolved.url + '\\n');`,
      '  return resolved;',
      '}',
    ].join('\n'),
  );
  const register = join(dir, 'register.mjs');
  await writeFile(
    register,
    [
      "import { register } from 'node:module';",
      "import { threadId } from 'node:worker_threads';",
      "register('./hooks.mjs', import.meta.url, { data: { thread: threadId } });",
    ].join('\n'),
  );
  return register;
}

describe('render worker modules', () => {
  it.skipIf(!hasFfmpeg)('a worker drawing video footage loads neither zod nor immer', async () => {
    const dir = await tempDir();
    const s = createSession();
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      name: 'Clip',
      width: 64,
      height: 48,
      frameRate: 24,
      duration: 0.5,
    });
    const clip = await numberedClip(dir, 'h264', '24', 12);
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: clip });
    await run(s, 'layer.addFootage', { comp, footage });
    await run(s, 'layer.addText', { comp, text: 'over' });
    await run(s, 'project.save', { path: join(dir, 'p.ecproj') });

    const log = join(dir, 'resolved.log');
    const register = await resolutionLogger(dir, log);
    const child = spawn(
      process.execPath,
      ['--import', register, cliPath, 'render', 'p.ecproj', '--comp', 'Clip', '--output', 'out.mp4'],
      { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);

    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    const byThread = new Map<string, string[]>();
    for (const line of lines) {
      const [thread, url] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
      byThread.set(thread, [...(byThread.get(thread) ?? []), url]);
    }
    const loads = (urls: string[], pkg: string) => urls.some((u) => u.includes(`/node_modules/${pkg}/`));
    // The main thread loads zod (the catalog): the log would show it in a worker too.
    expect(loads(byThread.get('0') ?? [], 'zod')).toBe(true);
    const workers = [...byThread].filter(([thread]) => thread !== '0').map(([, urls]) => urls);
    const drawing = workers.filter((urls) => urls.some((u) => u.endsWith('/render/queue/worker.js')));
    expect(drawing.length).toBeGreaterThan(0);
    for (const urls of drawing) {
      expect(loads(urls, '@napi-rs/canvas')).toBe(true);
      expect(loads(urls, 'zod')).toBe(false);
      expect(loads(urls, 'immer')).toBe(false);
    }
  });
});
