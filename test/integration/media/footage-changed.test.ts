/**
 * Previews show footage as it is on disk now: a clip or still written over after it was drawn shows its new
 * pictures at times already previewed (the preview worker's decoded frames, scrub cache and open descriptor
 * were the old file's), and a deleted clip is missing, not served from memory. Through a real session.
 */
import { execFile } from 'node:child_process';
import { copyFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, expect } from 'vitest';
import type { Session } from '../../../src/session.js';
import { disposeAll, savedCentre, showing } from '../../helpers/footage-session.js';
import { run } from '../../helpers/queue.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
afterEach(disposeAll);

/** A 1 s, 64x48 clip of one flat colour. */
async function flatClip(dir: string, colour: string): Promise<string> {
  const out = join(dir, `${colour}.mp4`);
  const src = `color=c=${colour}:s=64x48:r=30:d=1`;
  await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', src, out]);
  return out;
}

/** The name of the strongest channel at the centre of `comp` at `time`. */
async function shownColour(s: Session, comp: string, time: number, dir: string): Promise<string> {
  const [r, g, b] = await savedCentre(s, comp, time, dir);
  return r > g && r > b ? 'red' : b > r && b > g ? 'blue' : g > r && g > b ? 'green' : 'grey';
}

const compShowing = (path: string) => showing(path);

describeWithFfmpeg('footage that changes on disk after a preview', () => {
  itWithFfmpeg('a clip written over shows its new pictures at a time already shown', async () => {
    const dir = await tempDir();
    const clip = join(dir, 'gen.mp4');
    await copyFile(await flatClip(dir, 'blue'), clip);
    const { s, comp } = await compShowing(clip);
    expect(await shownColour(s, comp, 0.5, dir)).toBe('blue');
    expect(await shownColour(s, comp, 0.5, dir)).toBe('blue');
    // Written over in place (the same inode), as cp does.
    await copyFile(await flatClip(dir, 'red'), clip);
    expect(await shownColour(s, comp, 0.5, dir)).toBe('red');
    expect(await shownColour(s, comp, 0.2, dir)).toBe('red');
  });

  itWithFfmpeg('a still written over shows its new pixels', async () => {
    const dir = await tempDir();
    const still = join(dir, 'logo.png');
    const flat = (r: number, g: number, b: number) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g, b } } })
        .png()
        .toFile(still);
    await flat(0, 200, 0);
    const { s, comp } = await compShowing(still);
    expect(await shownColour(s, comp, 0.5, dir)).toBe('green');
    await flat(200, 0, 0);
    expect(await shownColour(s, comp, 0.5, dir)).toBe('red');
  });

  itWithFfmpeg('a clip deleted after a preview is missing, not served from memory', async () => {
    const dir = await tempDir();
    const clip = join(dir, 'gone.mp4');
    await copyFile(await flatClip(dir, 'blue'), clip);
    const { s, comp } = await compShowing(clip);
    expect(await shownColour(s, comp, 0.5, dir)).toBe('blue');
    await rm(clip);
    const saved = await s.engine.execute('frame.save', { comp, time: 0.5, path: join(dir, 'after.png') });
    expect(saved.ok).toBe(false);
    if (!saved.ok) expect(saved.error.code).toBe('no_such_file');
  });

  /** Frames 1-3 of a 64x48 sequence `f_000N.png`, blue; the pattern. */
  async function blueSequence(dir: string): Promise<string> {
    for (const n of [1, 2, 3]) await flatPng(join(dir, `f_000${n}.png`), [0, 0, 200]);
    return join(dir, 'f_%04d.png');
  }
  const flatPng = (path: string, [r, g, b]: number[]) =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: { r: r!, g: g!, b: b! } } })
      .png()
      .toFile(path);

  // Until 2026-12-07 only a sequence's first file was watched: its later frames, once decoded, were shown from
  // the preview worker's memory after they were written over or deleted.
  itWithFfmpeg('a later frame of a sequence written over shows its new pixels', async () => {
    const dir = await tempDir();
    const { s, comp } = await compShowing(await blueSequence(dir));
    // 3 frames at 30 fps: frame 2 (f_0002) from 1/30 s to 2/30 s.
    expect(await shownColour(s, comp, 1.5 / 30, dir)).toBe('blue');
    await flatPng(join(dir, 'f_0002.png'), [200, 0, 0]);
    expect(await shownColour(s, comp, 1.5 / 30, dir)).toBe('red');
    expect(await shownColour(s, comp, 0.5 / 30, dir)).toBe('blue');
  });

  itWithFfmpeg('a later frame of a sequence deleted after a preview is missing', async () => {
    const dir = await tempDir();
    const { s, comp } = await compShowing(await blueSequence(dir));
    expect(await shownColour(s, comp, 2.5 / 30, dir)).toBe('blue');
    await rm(join(dir, 'f_0003.png'));
    const saved = await s.engine.execute('frame.save', {
      comp,
      time: 2.5 / 30,
      path: join(dir, 'after.png'),
    });
    expect(saved.ok).toBe(false);
    if (!saved.ok) expect(saved.error.code).toBe('no_such_file');
  });
});

/** A 64x48 clip at 30 fps of `seconds`, or of another `size`: what a re-export under the same name may be. */
async function clipOf(dir: string, name: string, size: string, seconds: number, rate = 30): Promise<string> {
  const out = join(dir, name);
  const src = `color=c=red:s=${size}:r=${rate}:d=${seconds}`;
  await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', src, out]);
  return out;
}

describeWithFfmpeg('footage replaced by another clip after import', () => {
  itWithFfmpeg.each([
    ['another size', '32x24', 1, 30, /it was 64x48, 1\.00 s; it is now 32x24, 1\.00 s/],
    ['a shorter clip', '64x48', 0.4, 30, /it was 64x48, 1\.00 s; it is now 64x48, 0\.40 s/],
    ['another frame rate', '64x48', 1, 15, /it was 64x48, 30 fps, 1\.00 s; it is now 64x48, 15 fps, 1\.00 s/],
  ])(
    'a clip replaced by %s fails the frame and the render naming the change, and previews warn',
    async (_what, size, seconds, rate, change) => {
      const dir = await tempDir();
      const clip = join(dir, 'interview.mp4');
      await copyFile(await clipOf(dir, 'first.mp4', '64x48', 1), clip);
      const { s, comp } = await compShowing(clip);
      await copyFile(await clipOf(dir, 'second.mp4', size, seconds, rate), clip);
      const saved = await s.engine.execute('frame.save', { comp, time: 0.2, path: join(dir, 'f.png') });
      expect(saved.ok).toBe(false);
      if (!saved.ok) {
        expect(saved.error).toMatchObject({ code: 'unsupported_format' });
        expect(saved.error.message).toContain(`"${clip}" has changed since it was imported`);
        expect(saved.error.message).toMatch(change);
        expect(saved.error.remediation).toContain('footage.relink');
      }
      const preview = await s.engine.execute<{ warnings?: string[] }>('frame.preview', { comp, time: 0.2 });
      expect(preview.ok).toBe(true);
      if (preview.ok) expect(preview.result.warnings?.join(' ')).toMatch(/has changed since it was imported/);
      const out = join(dir, 'out', 'f_[##].png');
      const { id } = await run<{ id: string }>(s, 'renderQueue.add', { comp, output: out });
      const rendered = await run<{ items: { id: string; status: string; error?: { code: string } }[] }>(
        s,
        'renderQueue.render',
        { items: [id] },
      );
      expect(rendered.items[0]).toMatchObject({ status: 'failed', error: { code: 'unsupported_format' } });
    },
  );

  itWithFfmpeg(
    'a WebM whose headers give no duration (written to a pipe, as browsers record) is not taken for changed',
    async () => {
      const dir = await tempDir();
      const clip = join(dir, 'recorded.webm');
      const src = 'color=c=red:s=64x48:r=30:d=1';
      const { stdout } = await exec(
        'ffmpeg',
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-f',
          'lavfi',
          '-i',
          src,
          '-c:v',
          'libvpx-vp9',
          '-deadline',
          'realtime',
          '-f',
          'webm',
          'pipe:1',
        ],
        { encoding: 'buffer', maxBuffer: 1 << 24 },
      );
      await writeFile(clip, stdout);
      const { s, comp } = await compShowing(clip);
      expect(await shownColour(s, comp, 0.5, dir)).toBe('red');
    },
  );

  itWithFfmpeg('relinked to the new clip, it renders again', async () => {
    const dir = await tempDir();
    const clip = join(dir, 'interview.mp4');
    await copyFile(await clipOf(dir, 'first.mp4', '64x48', 1), clip);
    const { s, comp, footage } = await compShowing(clip);
    await copyFile(await clipOf(dir, 'second.mp4', '32x24', 1), clip);
    expect((await s.engine.execute('frame.save', { comp, time: 0.2, path: join(dir, 'a.png') })).ok).toBe(
      false,
    );
    await run(s, 'footage.relink', { footage, path: clip });
    expect(await shownColour(s, comp, 0.2, dir)).toBe('red');
  });
});
