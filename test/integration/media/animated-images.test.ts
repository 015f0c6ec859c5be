// Animated PNG (APNG) and animated WebP look like stills by their extension, and sharp reads one page of an
// APNG: both were imported as stills, silently, and showed their first frame for ever. An APNG now plays as
// video, as an animated GIF does (ffmpeg reads it); an animated WebP, which ffmpeg cannot decode, stays its first
// frame and the import says so and how to play it.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer, shownFrame } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);

/** 10 numbered frames at 10 fps (frame N's colour names N, as helpers/media.ts draws them) as `file`. */
async function numberedImage(dir: string, file: string, args: string[]): Promise<string> {
  const out = join(dir, file);
  const source =
    "color=c=black:s=64x48:r=10,format=rgb24,geq=r='16+32*mod(N\\,8)':g='16+32*mod(floor(N/8)\\,8)':" +
    "b='16+32*floor(N/64)',trim=end_frame=10";
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    ...args,
    out,
  ]);
  return out;
}

/** Imports `path` into a 10 fps, 1 s comp; the item, the import's warnings and the frames shown at 0, 0.5, 0.9 s. */
async function imported(path: string) {
  const engine = newEngine();
  const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
    width: 64,
    height: 48,
    frameRate: 10,
    duration: 1,
  });
  const r = await engine.execute<{ id: string }>('file.import', { path });
  if (!r.ok) throw new Error(r.error.message);
  await run(engine, 'layer.addFootage', { comp, footage: r.result.id });
  const item = engine.document.items.find((i) => i.id === r.result.id) as FootageItem;
  const renderer = await mediaRenderer();
  const frames: number[] = [];
  for (const t of [0, 0.5, 0.9]) frames.push(await shownFrame(renderer, engine.document, comp, t));
  return { item, warnings: r.warnings ?? [], frames };
}

describeWithFfmpeg('animated PNG and WebP', () => {
  itWithFfmpeg('an APNG plays as video, frame by frame', async () => {
    const apng = await numberedImage(await tempDir(), 'anim.png', ['-f', 'apng', '-plays', '0']);
    const { item, frames } = await imported(apng);
    expect(item.media).toMatchObject({ kind: 'video', frameCount: 10, frameRate: 10 });
    expect(frames).toEqual([0, 5, 9]);
  });

  itWithFfmpeg('a PNG that is one image stays a still', async () => {
    const png = await numberedImage(await tempDir(), 'one.png', ['-frames:v', '1']);
    const { item, warnings } = await imported(png);
    expect(item.media?.kind).toBe('still');
    expect(warnings).toEqual([]);
  });

  itWithFfmpeg('an animated WebP shows its first frame, and the import warns of it', async () => {
    const webp = await numberedImage(await tempDir(), 'anim.webp', [
      '-c:v',
      'libwebp_anim',
      '-lossless',
      '1',
    ]);
    const { item, warnings, frames } = await imported(webp);
    expect(item.media?.kind).toBe('still');
    expect(frames).toEqual([0, 0, 0]);
    expect(warnings.join(' ')).toMatch(/animated WebP of 10 frames; only its first frame is shown/);
  });
});
