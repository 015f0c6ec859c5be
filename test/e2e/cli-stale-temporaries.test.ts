/**
 * A render killed outright (SIGKILL: no cleanup runs) leaves its hidden temporary beside its output. The next
 * render of the same output removes it, and only what is certainly a dead render's: a temporary another live
 * process holds open stays, as do other outputs' temporaries and files that are not ours.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { untilTrue } from '../helpers/poll.js';
import { projectWith, videoProject } from '../helpers/projects.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

const PART = /^\.o\.mp4\.[0-9a-f]{10}\.part$/;

/** A second process holding `path` open (as a live render on this machine holds its temporary). */
function holder(path: string) {
  const child = spawn(process.execPath, [
    '-e',
    `require('fs').openSync(${JSON.stringify(path)}, 'r'); console.log('held'); setInterval(() => {}, 1000);`,
  ]);
  const held = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { child, held };
}

/** Sets a file's times `seconds` back: a temporary left by a render killed that long ago. */
async function age(path: string, seconds: number): Promise<void> {
  const then = new Date(Date.now() - seconds * 1000);
  await utimes(path, then, then);
}

itWithFfmpeg(
  'a re-render removes the temporary its killed predecessor left, and nothing else',
  async () => {
    const dir = await tempDir();
    // Long enough to be killed mid-encode: 40 s of 640x360 frames .
    const project = await videoProject(dir, 40);
    const out = join(dir, 'out');
    const killed = spawn(process.execPath, [cliPath, 'render', project], { stdio: 'ignore' });
    const partOf = () => (existsSync(out) ? readdirSync(out).filter((n) => PART.test(n)) : []);
    // Killed once its encoder has written part of the video.
    await untilTrue(() => partOf().some((n) => statSync(join(out, n)).size > 0), 60_000);
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    const [left] = partOf();
    expect(left, 'the killed render left its temporary').toBeDefined();
    expect(existsSync(join(out, 'o.mp4'))).toBe(false);

    // Beside it: a temporary of the same output that a live process holds, another output's temporary, and a
    // file of the person's that merely looks like one. All as old as the killed render's.
    const live = join(out, '.o.mp4.00000000aa.part');
    const other = join(out, '.other.mp4.00000000bb.part');
    const mine = join(out, '.o.mp4.notes.part');
    for (const f of [live, other, mine]) await writeFile(f, 'x');
    for (const f of [left!, '.o.mp4.00000000aa.part', '.other.mp4.00000000bb.part', '.o.mp4.notes.part'])
      await age(join(out, f), 120);
    const hold = holder(live);
    try {
      await hold.held;
      const run = await runCli(['render', project], { timeoutMs: 120_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(join(out, 'o.mp4'))).toBe(true);
      const names = readdirSync(out);
      expect(names, 'the dead render temporary is gone').not.toContain(left);
      expect(names).toEqual(expect.arrayContaining(['.o.mp4.00000000aa.part', '.other.mp4.00000000bb.part']));
      expect(names).toContain('.o.mp4.notes.part');
    } finally {
      hold.child.kill('SIGKILL');
    }
  },
  180_000,
);

itWithFfmpeg(
  "a live render's temporary stays when this render reaches the folder through a symbolic link",
  async () => {
    const dir = await tempDir();
    const project = join(dir, 'p.ecproj');
    // This render writes link/o.mp4; the other one (the holder) has out/.o.mp4.….part open by its real path.
    await writeFile(project, projectWith({ output: 'link/o.mp4', format: 'mp4' }));
    await mkdir(join(dir, 'out'));
    await symlink(join(dir, 'out'), join(dir, 'link'));
    const live = join(dir, 'out', '.o.mp4.00000000ee.part');
    await writeFile(live, 'x');
    await age(live, 120);
    const hold = holder(live);
    try {
      await hold.held;
      const run = await runCli(['render', project]);
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(live)).toBe(true);
    } finally {
      hold.child.kill('SIGKILL');
    }
  },
  60_000,
);

itWithFfmpeg(
  'a temporary written in the last minute stays: its writer may be a live render on another machine',
  async () => {
    const dir = await tempDir();
    const project = join(dir, 'p.ecproj');
    await writeFile(project, projectWith({ output: 'out/o.mp4', format: 'mp4' }));
    await mkdir(join(dir, 'out'));
    const fresh = join(dir, 'out', '.o.mp4.00000000cc.part');
    const old = join(dir, 'out', '.o.mp4.00000000dd.part');
    await writeFile(fresh, 'x');
    await writeFile(old, 'x');
    await age(old, 120);
    const run = await runCli(['render', project]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(old)).toBe(false);
  },
  60_000,
);
