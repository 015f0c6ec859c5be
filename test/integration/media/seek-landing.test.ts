/**
 * A decoder started at a frame gives exactly that frame first, where ffmpeg's own seek lands elsewhere:
 * - MPEG-TS has no index: ffmpeg seeks to a packet by its time, in general not a key frame, and H.264 decodes
 *   nothing until the next key frame. A clip with a key frame every 8 frames sought to frame 36 gave frame 40
 *   first, numbered 36: previews, frame.save, `still`, a frame range and a reversed clip all showed wrong frames.
 * - `-ss` counts from the file's start, the earliest stream's: a clip whose picture starts 0.5 s after its sound
 *   showed the frame 0.5 s early at every seek.
 * Renders from frame 0 never seek, so they were right; this test asks for frames that need a seek.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { frameOf, numberedClip } from '../../helpers/media.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
afterEach(disposeAll);

/** 60 frames at 30 fps, lossless, B-frames, a key frame every 8 frames (none where the seeks below go). */
const KEY_EVERY_8 = ['-preset', 'medium', '-g', '8', '-keyint_min', '8', '-sc_threshold', '0', '-bf', '2'];

const ffmpeg = (...args: string[]) => exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

/** The frame a PNG shows at its centre. */
async function shown(path: string): Promise<number> {
  const { data } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const i = (24 * 64 + 32) * 4;
  return frameOf(data[i]!, data[i + 1]!, data[i + 2]!);
}

/** A session with a 64x48, 30 fps, 2 s composition showing `path`; its ids. */
async function clipComp(path: string, speed = 1) {
  const s = trackedSession({ renderQueue: { maxWorkers: 1 } });
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: 64,
    height: 48,
    frameRate: 30,
    duration: 2,
  });
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path });
  const { id: layer } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
  if (speed !== 1) await run(s, 'layer.setTimeMap', { comp, layer, speed });
  return { s, comp, footage };
}

/** frame.save at each frame's time, in an order that makes every one a seek; the frames shown. */
async function savedFrames(path: string, frames: number[]): Promise<number[]> {
  const dir = await tempDir();
  const { s, comp } = await clipComp(path);
  const got: number[] = [];
  for (const f of frames) {
    const out = join(dir, `f${f}.png`);
    await run(s, 'frame.save', { comp, time: f / 30, path: out });
    got.push(await shown(out));
  }
  return got;
}

const SOUGHT = [36, 45, 12, 57, 31, 20];

describeWithFfmpeg('a decoder started at a frame gives that frame first', () => {
  itWithFfmpeg('MPEG-TS (no index): frame.save, a frame range and a reversed clip', async () => {
    const dir = await tempDir();
    const mp4 = await numberedClip(dir, 'h264', '30', 60, { extra: KEY_EVERY_8 });
    const ts = join(dir, 'clip.ts');
    await ffmpeg('-i', mp4, '-c', 'copy', '-f', 'mpegts', ts);
    expect(await savedFrames(ts, SOUGHT)).toEqual(SOUGHT);

    // A frame range starting mid-clip: the render worker's decoder starts with a seek.
    const { s, comp } = await clipComp(ts);
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, 'range', 'f_[##].png'),
      frameRange: { start: 36, end: 41 },
    });
    expect((await run<JobResult>(s, 'renderQueue.render', {})).completed).toBe(1);
    const range = [36, 37, 38, 39, 40, 41];
    expect(await Promise.all(range.map((f) => shown(join(dir, 'range', `f_${f}.png`))))).toEqual(range);

    // Reversed: read backwards in blocks, each block's decoder started by a seek.
    const back = await clipComp(ts, -1);
    await run(back.s, 'renderQueue.add', { comp: back.comp, output: join(dir, 'back', 'f_[##].png') });
    expect((await run<JobResult>(back.s, 'renderQueue.render', {})).completed).toBe(1);
    const all = Array.from({ length: 60 }, (_, f) => f);
    const shownBack = await Promise.all(
      all.map((f) => shown(join(dir, 'back', `f_${String(f).padStart(2, '0')}.png`))),
    );
    expect(shownBack).toEqual(all.map((f) => 59 - f));
  });

  itWithFfmpeg('a clip whose picture starts after its sound (MP4 and MPEG-TS)', async () => {
    const dir = await tempDir();
    const picture = await numberedClip(dir, 'h264', '30', 60, { extra: KEY_EVERY_8 });
    for (const ext of ['mp4', 'ts']) {
      const late = join(dir, `late.${ext}`);
      // The picture 0.5 s after the sound, as a camera's file or a clip cut with -c copy can be.
      await ffmpeg(
        ...['-itsoffset', '0.5', '-i', picture, '-f', 'lavfi', '-i', 'sine=f=440:d=2.5'],
        ...['-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', late],
      );
      const { s, footage } = await clipComp(late);
      const item = s.engine.document.items.find((i) => i.id === footage) as FootageItem;
      // 0.5 s, and the AAC encoder's priming (the sound's first samples are not heard) in the MP4.
      expect(item.media!.pictureStart).toBeCloseTo(0.5, 1);
      expect(await savedFrames(late, SOUGHT)).toEqual(SOUGHT);
      // Frames before the second key frame: no fast seek, only frames dropped by their times, which ffmpeg
      // then counts from the first picture, not the file's start. Until 2026-12-07 the MPEG-TS gave 21, 1, 23
      // (0.52 s late: its picture starts 0.52 s after its sound), and a frame range starting there too.
      expect(await savedFrames(late, [5, 1, 7])).toEqual([5, 1, 7]);
    }
  });
});
