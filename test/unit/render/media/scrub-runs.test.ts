/**
 * The scrub cache runs at most MAX_RUNS (3) decoders at once across clips: previews at random times across a
 * 16-clip edit had one going for every clip (16 ffmpeg of ~100 MB each). The runs here are real ffmpeg
 * processes that deliver their first JPEG at once and go on at the clip's own pace (`-re`), as a run does that
 * nobody has stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, expect } from 'vitest';
import { ScrubCache } from '../../../../src/render/media/scrub-cache.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../../helpers/ffmpeg.js';

const children: ChildProcess[] = [];
const caches: ScrubCache[] = [];

afterEach(() => {
  caches.splice(0).forEach((c) => c.close());
  children.splice(0).forEach((c) => c.kill('SIGKILL'));
});

/** A run of 60 s of 64x48 frames as ffmpeg's multipart JPEG, read at its frame rate. */
function spawnRun() {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=s=64x48:r=30:d=60'],
      ...['-f', 'mpjpeg', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return Promise.resolve({ child, ready: Promise.resolve() });
}

const going = () => children.filter((c) => !c.killed && c.exitCode === null).length;

describeWithFfmpeg('runs of the scrub cache across clips', () => {
  itWithFfmpeg(
    'at most three go at once: a seek in a fourth clip stops the least recently used',
    async () => {
      const cache = new ScrubCache(64 * 1024 * 1024);
      caches.push(cache);
      for (let clip = 0; clip < 6; clip++) {
        // Each a preview of its own, as previews at random times across an edit are.
        cache.nextFrame();
        const jpeg = await cache.frame(`clip-${clip}`, 0, 1800, spawnRun);
        expect(jpeg?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
        expect(going()).toBeLessThanOrEqual(3);
      }
      expect(children).toHaveLength(6);
      // The stopped runs were the oldest; what they kept stays kept.
      expect(children.slice(0, 3).every((c) => c.killed)).toBe(true);
      expect(children.slice(3).some((c) => c.killed)).toBe(false);
      for (let clip = 0; clip < 6; clip++) expect(cache.keeps(`clip-${clip}`, 0)).toBe(true);
    },
  );

  itWithFfmpeg('a frame that shows more clips keeps all their runs, frame after frame', async () => {
    // A grid of five clips scrubbed: each preview asks for all five. Stopping one for another would restart
    // runs on every preview, a new ffmpeg per clip each time.
    const cache = new ScrubCache(64 * 1024 * 1024);
    caches.push(cache);
    for (let frame = 0; frame < 3; frame++) {
      cache.nextFrame();
      for (let clip = 0; clip < 5; clip++) {
        const jpeg = await cache.frame(`clip-${clip}`, frame, 1800, spawnRun);
        expect(jpeg?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      }
    }
    expect(children).toHaveLength(5);
    expect(going()).toBe(5);
  });
});
