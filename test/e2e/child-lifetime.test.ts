/**
 * ffmpeg children end with the process that started them, even when it is killed outright (SIGKILL: no
 * cleanup of ours runs). A real Node process starts an ffmpeg through FfmpegProcess, as a render worker's
 * exporters and sound mixes do, and is killed; the ffmpeg, which reads nothing from it, must not run on.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { distDir } from '../helpers/cli.js';
import { describeWithFfmpeg, hasFfmpeg } from '../helpers/ffmpeg.js';
import { untilTrue } from '../helpers/poll.js';

/** Running or sleeping: neither gone nor a zombie waiting for a parent to reap it. */
function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

const hasSetpriv = ['/usr/bin/setpriv', '/bin/setpriv'].some((p) => existsSync(p));

describeWithFfmpeg('ffmpeg children of a process killed outright', () => {
  it.runIf(hasFfmpeg && process.platform === 'linux' && hasSetpriv)(
    'die with it (the parent-death signal setpriv gives them), where they ran on to their end before',
    async () => {
      const module = pathToFileURL(join(distDir, 'render/queue/exporters/ffmpeg.js')).href;
      // A minute of sound read in real time and written nowhere: ffmpeg needs nothing from its parent.
      const script = `
        const { FfmpegProcess, findFfmpeg } = await import(${JSON.stringify(module)});
        const ffmpeg = new FfmpegProcess(await findFfmpeg(process.env.PATH), [
          '-re', '-f', 'lavfi', '-i', 'sine=duration=60', '-f', 'null', '-',
        ]);
        console.log(ffmpeg.pid);
        setInterval(() => {}, 1000);`;
      const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const pid = await new Promise<number>((resolve) =>
        parent.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
      );
      // setpriv has exec'd ffmpeg in place (same pid), and it runs.
      await untilTrue(() => alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('ffmpeg'));
      parent.kill('SIGKILL');
      await untilTrue(() => !alive(pid), 3000);
      expect(alive(pid)).toBe(false);
    },
  );
});
