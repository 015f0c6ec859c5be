/**
 * A coordinator killed outright (SIGKILL: no cancel broadcast) leaves a render nobody waits for. Its lease runs
 * out (15 s), and the workers let it go: the chunk in hand stops, queued ones are dropped when taken, and the
 * orphan is never assembled into an output (it used to be, half a minute later, racing a retry to the same file).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { chunksTaken, redisWithWorkers } from '../helpers/distributed.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { untilTrue } from '../helpers/poll.js';
import { videoProject } from '../helpers/projects.js';
import { describeWithRedis } from '../helpers/redis.js';
import { tempDir } from '../helpers/tmp.js';

describeWithRedis('a distributed render whose coordinator is killed', () => {
  const redis = redisWithWorkers(1);

  itWithFfmpeg(
    'is let go by the workers once its lease runs out: the chunk in hand stops, the rest are dropped, its segments removed, nothing assembled',
    async () => {
      const dir = await tempDir();
      // Three chunks of 15,000 frames, each far longer for one worker to render than the lease lasts.
      const project = await videoProject(dir, 1500);
      const coordinator = spawn(
        process.execPath,
        [cliPath, 'render', project, '--redis', redis.url, '--chunk-size', '15000'],
        { stdio: 'ignore' },
      );
      const [worker] = redis.workers;
      const before = chunksTaken(redis.workers);
      // Killed once the first chunk is done (its segment written) and the second is in hand.
      await untilTrue(() => chunksTaken(redis.workers) >= before + 2, 120_000);
      const out = join(dir, 'out');
      const segments = () => readdirSync(out).filter((n) => n.endsWith('.seg.mp4'));
      expect(segments()).toHaveLength(1);
      coordinator.kill('SIGKILL');
      // Let go within the lease (15 s) and a check (5 s): the chunk in hand is stopped (unless it ends first), and
      // the one still queued is dropped as it is taken, with the render's segments.
      const dropped = /dropped: the process that started its render/;
      expect(await untilTrue(() => dropped.test(worker!.log()), 120_000)).toBe(true);
      expect(worker!.log()).toMatch(
        /stopped: the process that started its render stopped renewing its lease|removed 2 segment\(s\)/,
      );
      expect(worker!.log()).toMatch(/removed [12] segment\(s\) of that render, which nothing will join/);
      const taken = chunksTaken(redis.workers);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(chunksTaken(redis.workers)).toBe(taken);
      // Nothing of the orphan is left beside the output, and it was never assembled.
      expect(readdirSync(out)).toEqual([]);
    },
    200_000,
  );

  itWithFfmpeg(
    'a coordinator paused past its lease says its lease lapsed, not that it was stopped',
    async () => {
      const dir = await tempDir();
      const project = await videoProject(dir, 1200);
      const coordinator = spawn(
        process.execPath,
        [cliPath, 'render', project, '--redis', redis.url, '--chunk-size', '18000', '--json'],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      let stdout = '';
      coordinator.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((resolve) => coordinator.on('close', resolve));
      const before = chunksTaken(redis.workers);
      await untilTrue(() => chunksTaken(redis.workers) > before, 60_000);
      // Ctrl-Z, a laptop asleep: the lease (15 s) runs out and the workers let the chunk in hand go.
      const seen = redis.workers[0]!.log().length;
      coordinator.kill('SIGSTOP');
      const letGo = () =>
        /stopped: the process that started its render/.test(redis.workers[0]!.log().slice(seen));
      expect(await untilTrue(letGo, 40_000)).toBe(true);
      coordinator.kill('SIGCONT');
      expect(await exited).toBe(1);
      const result = JSON.parse(stdout) as { items: Array<{ status: string; error?: { message: string } }> };
      expect(result.items[0]!.status).toBe('failed');
      expect(result.items[0]!.error?.message).toMatch(
        /^This render's lease lapsed: this process did not renew it/,
      );
    },
    200_000,
  );
});
