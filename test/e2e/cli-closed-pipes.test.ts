/**
 * A render whose log reader goes away (stderr or stdout closed: `2>&1 | head -c 10`, a log shipper that died)
 * goes on: the files are the work. It used to die on the first progress line after the pipe closed, exit 1 (or
 * 0), leave a `.part` and no output. A closed stdout still ends a command whose output is all it does.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { probeVideo } from '../helpers/probe.js';
import { projectWith, videoProject } from '../helpers/projects.js';
import { tempDir } from '../helpers/tmp.js';

/** Runs the CLI with its stdout and/or stderr closed by the reader at once; resolves with its exit code. */
function withClosedPipes(args: string[], close: Array<'stdout' | 'stderr'>): Promise<number | null> {
  const child = spawn(process.execPath, [cliPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const name of close) child[name].destroy();
  for (const name of (['stdout', 'stderr'] as const).filter((n) => !close.includes(n))) child[name].resume();
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

itWithFfmpeg(
  'a render with its stderr and stdout closed finishes its video, exit 0, nothing left over',
  async () => {
    const dir = await tempDir();
    // Several seconds of frames: progress lines are written (and fail) all along.
    const project = await videoProject(dir, 12);
    for (const close of [['stderr'], ['stdout', 'stderr']] as Array<Array<'stdout' | 'stderr'>>) {
      expect(await withClosedPipes(['render', project], close), close.join('+')).toBe(0);
      expect(readdirSync(join(dir, 'out')).sort()).toEqual(['o.mp4', 'o.mp4.manifest.json']);
      expect((await probeVideo(join(dir, 'out', 'o.mp4'))).frames).toBe(360);
    }
  },
  120_000,
);

it('a closed stdout still ends a command that only prints (inspect), exit 0', async () => {
  const dir = await tempDir();
  const project = join(dir, 'p.ecproj');
  await writeFile(project, projectWith({}));
  expect(await withClosedPipes(['inspect', project], ['stdout'])).toBe(0);
});
