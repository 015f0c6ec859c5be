/**
 * Video footage through a session, as agents use it: frame.preview (the preview worker), the render queue
 * (worker threads, PNG and MP4 outputs), missing footage, and decoder processes that end with their job.
 */
import { execFile } from 'node:child_process';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, expect } from 'vitest';
import type { JobResult } from '../../../src/render/queue/service.js';
import { createSession, type Session } from '../../../src/session.js';
import { describeWithFfmpeg, ffmpegChildren, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { untilTrue } from '../../helpers/poll.js';
import { frameOf, numberedClip, numberedClipComp } from '../../helpers/media.js';
import { failCode, run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
const sessions: Session[] = [];

afterEach(async () => {
  for (const s of sessions.splice(0)) {
    s.renderQueue.stop();
    await s.renderQueue.idle();
    (await s.renderer()).dispose();
  }
});

function session(): Session {
  const s = createSession({ renderQueue: { maxWorkers: 2 } });
  sessions.push(s);
  return s;
}

/** A comp at 24 fps showing a 48-frame numbered clip at `speed`. */
const videoComp = async (s: Session, clip: string, speed = 1) =>
  (await numberedClipComp(s, clip, speed)).comp;

const centre = (rgba: Buffer, width: number, height: number) => {
  const i = (Math.floor(height / 2) * width + Math.floor(width / 2)) * 4;
  return frameOf(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
};

describeWithFfmpeg('video footage in a session', () => {
  itWithFfmpeg('frame.preview shows the source frame at the comp time', async () => {
    const s = session();
    const comp = await videoComp(s, await numberedClip(await tempDir(), 'h264', '24', 48));
    for (const frame of [5, 17, 2]) {
      const r = await run<{ png: string; warnings: string[] }>(s, 'frame.preview', {
        comp,
        time: frame / 24,
      });
      expect(r.warnings).toEqual([]);
      const { data, info } = await sharp(Buffer.from(r.png, 'base64'))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(centre(data, info.width, info.height)).toBe(frame);
    }
  });

  itWithFfmpeg(
    'a time between two frames previews and saves the frame it falls in, as a render writes it',
    async () => {
      const dir = await tempDir();
      const s = session();
      const comp = await videoComp(s, await numberedClip(dir, 'h264', '24', 48));
      // 10.6 frames in: nearer source frame 11 by time, but comp frame 10 is what a render writes there.
      const time = 10.6 / 24;
      const r = await run<{ png: string; frame: number; time: number }>(s, 'frame.preview', { comp, time });
      expect([r.frame, r.time]).toEqual([10, time]);
      const preview = await sharp(Buffer.from(r.png, 'base64'))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(centre(preview.data, preview.info.width, preview.info.height)).toBe(10);
      await run(s, 'frame.save', { comp, time, path: join(dir, 'still.png') });
      const still = await sharp(join(dir, 'still.png'))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(centre(still.data, still.info.width, still.info.height)).toBe(10);
    },
  );

  itWithFfmpeg('previews at random times come from the scrub cache; frame.save still decodes', async () => {
    const dir = await tempDir();
    const s = session();
    const comp = await videoComp(s, await numberedClip(dir, 'h264', '24', 48));
    const shown = async (frame: number) => {
      const r = await run<{ png: string }>(s, 'frame.preview', { comp, time: frame / 24 });
      const { data, info } = await sharp(Buffer.from(r.png, 'base64'))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return centre(data, info.width, info.height);
    };
    expect(await shown(5)).toBe(5);
    // The first seek's run keeps the clip from frame 5 on, a second fills frames 0-4; then none is left (for a
    // while: between the two runs, none is alive either).
    const quiet = async () => {
      for (let i = 0; i < 5; i++) {
        if (ffmpegChildren().length) return false;
        await new Promise((r) => setTimeout(r, 60));
      }
      return true;
    };
    expect(await untilTrue(quiet)).toBe(true);
    for (const frame of [20, 2, 16, 11, 23]) {
      expect(await shown(frame)).toBe(frame);
      // A seek would leave its decoder waiting for more frames: none was started.
      expect(ffmpegChildren()).toEqual([]);
    }
    await run(s, 'frame.save', { comp, time: 8 / 24, path: join(dir, 'still.png') });
    expect(ffmpegChildren().length).toBe(1);
  });

  itWithFfmpeg('the render queue writes the mapped source frames (PNG sequence and MP4)', async () => {
    const dir = await tempDir();
    const s = session();
    const comp = await videoComp(s, await numberedClip(dir, 'h264', '24', 48), 2);
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'out', 'f_[##].png') });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'out.mp4'), format: 'mp4' });
    const result = await run<JobResult>(s, 'renderQueue.render', {});
    expect(result.completed).toBe(2);
    for (const k of [0, 1, 7, 23]) {
      const { data, info } = await sharp(join(dir, 'out', `f_${String(k).padStart(2, '0')}.png`))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(centre(data, info.width, info.height)).toBe(2 * k);
    }
    const { stdout } = await exec(
      'ffmpeg',
      ['-v', 'error', '-i', join(dir, 'out.mp4'), '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'],
      {
        encoding: 'buffer',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const frameBytes = 64 * 48 * 4;
    expect(stdout.length / frameBytes).toBe(24);
    const shown = Array.from({ length: 24 }, (_, k) => centre(stdout.subarray(k * frameBytes), 64, 48));
    expect(shown).toEqual(Array.from({ length: 24 }, (_, k) => 2 * k));
  });

  itWithFfmpeg(
    'missing video: a placeholder and a warning in previews, no_such_file in final renders',
    async () => {
      const dir = await tempDir();
      const s = session();
      const clip = await numberedClip(dir, 'h264', '24', 8);
      const comp = await videoComp(s, clip);
      await rename(clip, `${clip}.gone`);
      const r = await run<{ warnings: string[] }>(s, 'frame.preview', { comp, time: 0 });
      expect(r.warnings.join(' ')).toMatch(/placeholder/);
      // With the remedy a final render gives (it was left out: the warning said only what went wrong).
      expect(r.warnings.join(' ')).toMatch(
        /placeholder is shown instead\. Put the file back .*footage\.relink/,
      );
      expect(await failCode(s, 'frame.save', { comp, time: 0, path: join(dir, 'still.png') })).toBe(
        'no_such_file',
      );
      await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[##].png') });
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.items[0]!.error?.code).toBe('no_such_file');
      // Named as the footage it is, with the remedy that fixes it (as a missing still or sound file is).
      expect(job.items[0]!.error?.message).toMatch(/^Footage ".+" \(footage_\d+\) cannot be read from/);
      expect(job.items[0]!.error?.remediation).toMatch(/footage\.relink/);
      // A file put back that is no media any more: changed since its import, relink it (not "import another").
      await writeFile(clip, 'not a video');
      const changed = await run<JobResult>(s, 'renderQueue.render', {});
      expect(changed.items[0]!.error).toMatchObject({ code: 'unsupported_format' });
      expect(changed.items[0]!.error?.message).toMatch(/has changed since it was imported/);
      expect(changed.items[0]!.error?.remediation).toMatch(/footage\.relink/);
    },
  );

  itWithFfmpeg('a cancelled render and a disposed preview leave no ffmpeg process behind', async () => {
    const dir = await tempDir();
    const s = session();
    const clip = await numberedClip(dir, 'h264', '24', 240, { size: '320x180' });
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      width: 640,
      height: 360,
      frameRate: 24,
      duration: 20,
    });
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: clip });
    await run(s, 'layer.addFootage', { comp, footage });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'out', 'f_[###].png') });
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    // The decoders run while frames are rendered (so this test can fail)...
    expect(await untilTrue(() => ffmpegChildren().length > 0)).toBe(true);
    s.renderQueue.stop();
    const r = await job;
    expect(r.ok && r.result.stopped).toBe(1);
    // ...and are gone once the job has ended.
    expect(await untilTrue(() => ffmpegChildren().length === 0, 3000)).toBe(true);

    // frame.save decodes exactly in the preview worker; its seeking decoder waits there, paused, for more frames.
    await run(s, 'frame.save', { comp, time: 3, path: join(dir, 'still.png') });
    expect(ffmpegChildren().length).toBeGreaterThan(0);
    (await s.renderer()).dispose();
    expect(await untilTrue(() => ffmpegChildren().length === 0, 3000)).toBe(true);
  });
});
