// A variable-rate clip re-muxed into Matroska without re-encoding (`ffmpeg -i phone.mp4 -c copy clip.mkv`)
// states its average rate as its default frame duration, so ffprobe's two rates agree and its frames fill its
// duration: nothing in its headers tells it apart from a constant-rate clip. It was imported as constant-rate
// and every frame was shown at frame number / average rate: 20 frames (10 at 1/24 s, 10 at 1/12 s) over
// 1.209 s showed frame 6 at 0.375 s, where frame 9 is. Its packets' times now tell (closer-look.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer, shownFrame } from '../../helpers/media-render.js';
import { numberedClip, variableRateClip } from '../../helpers/media.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);

/** `clip` re-muxed into `ext` without re-encoding. */
async function remuxed(clip: string, ext: string): Promise<string> {
  const out = clip.replace(/\.\w+$/, `-remuxed.${ext}`);
  await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', clip, '-c', 'copy', out]);
  return out;
}

/** The footage item `path` imports as, and the source frame a 24 fps comp showing it shows at each of `times`. */
async function shown(
  path: string,
  times: number[],
): Promise<{ media: FootageItem['media']; frames: number[] }> {
  const engine = newEngine();
  const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
    width: 64,
    height: 48,
    frameRate: 24,
    duration: 2,
  });
  const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path });
  await run(engine, 'layer.addFootage', { comp, footage });
  const item = engine.document.items.find((i) => i.id === footage) as FootageItem;
  const renderer = await mediaRenderer();
  const frames: number[] = [];
  for (const t of times) frames.push(await shownFrame(renderer, engine.document, comp, t));
  return { media: item.media, frames };
}

describeWithFfmpeg('variable-rate clips re-muxed into Matroska', () => {
  itWithFfmpeg('an MKV re-muxed from a variable-rate MP4 shows each frame at its own time', async () => {
    const { path, times } = await variableRateClip(await tempDir(), 20);
    const mkv = await remuxed(path, 'mkv');
    // Frame 9 (0.375 s), frame 12 (10/24 + 2/12 s), the last (19).
    const at = [times[9]!, times[12]!, times[19]!];
    const { media, frames } = await shown(mkv, at);
    expect(media).toMatchObject({ frameCount: 20, variableFrameRate: true });
    expect(frames).toEqual([9, 12, 19]);
    // The MP4 it came from, as it always did.
    expect((await shown(path, at)).frames).toEqual([9, 12, 19]);
  });

  itWithFfmpeg(
    'constant-rate MKV and WebM at 29.97 fps (whole-millisecond times) stay constant-rate',
    async () => {
      const dir = await tempDir();
      for (const clip of [
        await remuxed(await numberedClip(dir, 'h264', '30000/1001', 60), 'mkv'),
        await numberedClip(dir, 'vp9', '30000/1001', 60),
      ]) {
        const { media } = await shown(clip, []);
        expect(media).toMatchObject({ frameCount: 60, variableFrameRate: false });
      }
    },
  );
});
