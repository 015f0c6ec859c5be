/**
 * A coordinator killed outright (SIGKILL: no cancel broadcast) leaves a render nobody waits for. Its lease runs
 * out (15 s), and the workers let it go: the chunk in hand stops, queued ones are dropped when taken, and the
 * orphan is never assembled into an output (it used to be, half a minute later, racing a retry to the same file).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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
    'is let go by the workers once its lease runs out, and never assembled',
    async () => {
      const dir = await tempDir();
      // Two chunks of 10 minutes each, each far longer for one worker to render than the lease lasts.
      const project = await videoProject(dir, 1200);
      const coordinator = spawn(
        process.execPath,
        [cliPath, 'render', project, '--redis', redis.url, '--chunk-size', '18000'],
        { stdio: 'ignore' },
      );
      const [worker] = redis.workers;
      const before = chunksTaken(redis.workers);
      await untilTrue(() => chunksTaken(redis.workers) > before, 60_000);
      coordinator.kill('SIGKILL');
      const abandoned = /stopped: the process that started its render stopped renewing its lease/;
      expect(await untilTrue(() => abandoned.test(worker!.log()), 40_000)).toBe(true);
      // The chunk in hand stopped; the one still queued is dropped as it is taken, not rendered.
      await untilTrue(() => /dropped: the process that started its render/.test(worker!.log()), 20_000);
      const taken = chunksTaken(redis.workers);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(chunksTaken(redis.workers)).toBe(taken);
      expect(existsSync(join(dir, 'out', 'o.mp4'))).toBe(false);
      expect(existsSync(join(dir, 'out', 'o.mp4.manifest.json'))).toBe(false);
    },
    150_000,
  );
});
