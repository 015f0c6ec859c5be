// WebM and MKV state a stream's length as where it ends on the file's timeline (its DURATION tag, the segment's
// duration). A file whose timestamps start at 2 s (re-muxed with -output_ts_offset, cut from a longer
// recording) stated 5 s for 3 s of pictures: the layer ran 2 s past the last frame, which froze there, and the
// clip was taken for variable-rate. Its length is the end less its start, as MP4 and MPEG-TS already gave it.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer, shownFrame } from '../../helpers/media-render.js';
import { numberedClip, type Codec } from '../../helpers/media.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
const QUIET = ['-hide_banner', '-loglevel', 'error', '-y'];

/** `clip` re-muxed without re-encoding into `ext`, its timestamps starting `seconds` later. */
async function startingLater(clip: string, ext: string, seconds: number): Promise<string> {
  const out = clip.replace(/\.\w+$/, `-from-${seconds}.${ext}`);
  await exec('ffmpeg', [...QUIET, '-i', clip, '-c', 'copy', '-output_ts_offset', String(seconds), out]);
  return out;
}

describeWithFfmpeg('Matroska footage whose timestamps start after 0', () => {
  itWithFfmpeg.each([
    ['vp9', 'webm'],
    ['h264', 'mkv'],
  ] as const)('a %s %s starting at 2 s lasts its 3 s and shows its last frame last', async (codec, ext) => {
    const clip = await startingLater(await numberedClip(await tempDir(), codec as Codec, '30', 90), ext, 2);
    const engine = newEngine();
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 5,
    });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
    const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { comp, footage });
    const item = engine.document.items.find((i) => i.id === footage) as FootageItem;
    expect(item.media).toMatchObject({ frameCount: 90, variableFrameRate: false });
    expect(item.media!.duration).toBeCloseTo(3, 3);
    const placed = engine.document.items
      .flatMap((i) => (i.type === 'composition' ? i.layers : []))
      .find((l) => l.id === layer)!;
    expect(placed.outPoint).toBeCloseTo(3, 3);
    // The frames play at their own times; after the last one the layer has ended (nothing drawn).
    const renderer = await mediaRenderer();
    const at = (t: number) => shownFrame(renderer, engine.document, comp, t);
    expect([await at(0), await at(1), await at(89 / 30), await at(3.5)]).toEqual([0, 30, 89, -1]);
  });

  itWithFfmpeg(
    'a WebM ffmpeg writes with Opus sound (its picture starts at 7 ms) lasts its 3 s',
    async () => {
      const webm = join(await tempDir(), 'clip.webm');
      await exec('ffmpeg', [
        ...QUIET,
        ...['-f', 'lavfi', '-i', 'color=c=black:s=32x32:r=30:d=3'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=3'],
        ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-c:a', 'libopus', webm],
      ]);
      const { media } = await run<{ media: FootageItem['media'] }>(newEngine(), 'file.import', {
        path: webm,
      });
      // It stated 3.007 s: where its picture ends, 7 ms after 0 because the Opus pre-skip starts before it.
      expect(media).toMatchObject({ frameCount: 90, variableFrameRate: false });
      expect(media!.duration).toBeCloseTo(3, 3);
    },
  );

  itWithFfmpeg('the sound of an MKV starting at 2 s lasts its own length', async () => {
    const dir = await tempDir();
    const mkv = join(dir, 'clip.mkv');
    await exec('ffmpeg', [
      ...QUIET,
      ...['-f', 'lavfi', '-i', 'color=c=black:s=32x32:r=30:d=3'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=3'],
      ...['-c:v', 'libx264', '-c:a', 'pcm_s16le', '-output_ts_offset', '2', mkv],
    ]);
    const { media } = await run<{ media: FootageItem['media'] }>(newEngine(), 'file.import', { path: mkv });
    expect(media!.duration).toBeCloseTo(3, 2);
    expect(media!.audio!.duration).toBeCloseTo(3, 2);
    expect(media!.audio!.offset ?? 0).toBeCloseTo(0, 3);
  });
});
