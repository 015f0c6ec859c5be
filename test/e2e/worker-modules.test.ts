/**
 * What a render or preview worker loads: the renderer and the engine's model types, never zod or immer (the
 * command catalog's and the schemas' libraries: ~60 ms in every render worker before its first frame, ~120 ms
 * before a session's first preview). The built code runs with `--import` of a module-resolution hook
 * registered in every thread (workers inherit it), which logs each module a thread resolves with its id.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session.js';
import { cliPath, distDir } from '../helpers/cli.js';
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

/** Runs node with the logger preloaded in every thread; the modules each thread resolved, by thread id. */
async function modulesByThread(dir: string, args: string[]): Promise<Map<string, string[]>> {
  const log = join(dir, 'resolved.log');
  const register = await resolutionLogger(dir, log);
  const child = spawn(process.execPath, ['--import', register, ...args], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code, stderr).toBe(0);
  const byThread = new Map<string, string[]>();
  for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
    const [thread, url] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    byThread.set(thread, [...(byThread.get(thread) ?? []), url]);
  }
  return byThread;
}

const loads = (urls: string[], pkg: string) => urls.some((u) => u.includes(`/node_modules/${pkg}/`));

/**
 * The threads that ran `entry` (a worker's module, e.g. /render/queue/worker.js): each drew with Skia and loaded
 * neither zod nor immer. The main thread did load zod (the catalog): the log would show it in a worker too.
 */
function expectLean(byThread: Map<string, string[]>, entry: string): void {
  expect(loads(byThread.get('0') ?? [], 'zod')).toBe(true);
  const workers = [...byThread].filter(([thread]) => thread !== '0').map(([, urls]) => urls);
  const drawing = workers.filter((urls) => urls.some((u) => u.endsWith(entry)));
  expect(drawing.length).toBeGreaterThan(0);
  for (const urls of drawing) {
    expect(loads(urls, '@napi-rs/canvas')).toBe(true);
    expect(loads(urls, 'zod')).toBe(false);
    expect(loads(urls, 'immer')).toBe(false);
  }
}

/** A project (p.ecproj in `dir`) whose composition "Clip" shows a text, over a video clip when `video`. */
async function clipProject(dir: string, video = true): Promise<void> {
  const s = createSession();
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    name: 'Clip',
    width: 64,
    height: 48,
    frameRate: 24,
    duration: 0.5,
  });
  if (video) {
    const clip = await numberedClip(dir, 'h264', '24', 12);
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: clip });
    await run(s, 'layer.addFootage', { comp, footage });
  }
  await run(s, 'layer.addText', { comp, text: 'over' });
  await run(s, 'project.save', { path: join(dir, 'p.ecproj') });
}

describe('worker modules', () => {
  it.skipIf(!hasFfmpeg)('a render worker drawing video footage loads neither zod nor immer', async () => {
    const dir = await tempDir();
    await clipProject(dir);
    const args = [cliPath, 'render', 'p.ecproj', '--comp', 'Clip', '--output', 'out.mp4'];
    expectLean(await modulesByThread(dir, args), '/render/queue/worker.js');
  });

  // Its first video frame loads the ffprobe parser (and zod) to check the file, beside the decoder's start.
  it("a session's preview worker loads neither: the first preview waits for it", async () => {
    const dir = await tempDir();
    await clipProject(dir, false);
    const script = join(dir, 'preview.mjs');
    await writeFile(
      script,
      [
        `import { createSession } from ${JSON.stringify(pathToFileURL(join(distDir, 'session.js')).href)};`,
        'const s = createSession();',
        'const ok = async (id, params) => { const r = await s.engine.execute(id, params); if (!r.ok) throw new Error(r.error.message); return r.result; };',
        `await ok('project.open', { path: ${JSON.stringify(join(dir, 'p.ecproj'))} });`,
        "await ok('frame.preview', { comp: 'Clip', time: 0.1 });",
        '(await s.renderer()).dispose();',
        'process.exit(0);',
      ].join('\n'),
    );
    expectLean(await modulesByThread(dir, [script]), '/render/preview/worker.js');
  });
});
