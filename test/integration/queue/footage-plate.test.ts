// Footage plates: a video at the bottom of a composition, shown as it is stored, goes to an MP4 or WebM as its
// own decoded YUV samples with the layers above blended on in YUV (src/render/plate.ts), not through RGBA.
// Checked as a user would see it: the video's pictures against the PNG sequence of the same composition (which
// always takes the RGB path), for clips stored with either matrix and in full range, and the frames a time map
// picks.
// A wrapper ffmpeg shows which path each render took: a plate's decoder writes the clip's own 4:2:0 samples
// (no -vf, -pix_fmt yuv420p), any other decoder RGBA.
import { execFile, execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import type { JobResult } from '../../../src/render/queue/service.js';
import type { Session } from '../../../src/session.js';
import { ffmpegChildren, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { untilTrue } from '../../helpers/poll.js';
import { loggingFfmpeg } from '../../helpers/ffmpeg-log.js';
import { frameOf, numberedClip, numberedClipComp } from '../../helpers/media.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { renderTo, soundSession } from '../audio/sound-helpers.js';

const exec = promisify(execFile);
type Rgb = [number, number, number];

/** A session whose ffmpeg logs its arguments; `decoders()` gives the output format of each decoder run. */
async function loggedSession(): Promise<{ s: Session; decoders: () => Promise<string[]> }> {
  const dir = await tempDir();
  const real = execFileSync('which', ['ffmpeg'], { encoding: 'utf8' }).trim();
  const ffmpeg = await loggingFfmpeg(dir, real);
  const s = soundSession({ findFfmpeg: async () => ffmpeg.path });
  const decoders = async () =>
    (await ffmpeg.runs())
      .filter((args) => args.at(-1) === 'pipe:1' && args.includes('rawvideo'))
      .map((args) => `${args.includes('-vf') ? 'vf,' : ''}${args[args.lastIndexOf('-pix_fmt') + 1]}`);
  return { s, decoders };
}

/** A 64x48, 24 fps, 1 s comp whose one layer is a 48-frame numbered 64x48 clip (`numberedClip`). */
async function numberedPlateComp(s: Session, dir: string): Promise<{ comp: string; layer: string }> {
  return numberedClipComp(s, await numberedClip(dir, 'h264', '24', 48));
}

/** The centre patch of a 64x48 RGB frame, as the numbered clip's frame number it shows. */
const centreFrame = (px: Buffer) => frameOf(...(patch(px, 64, 3, 32, 24).map(Math.round) as Rgb));

/** The frame number each frame of a 64x48 MP4 shows at its centre. */
async function mp4Frames(path: string): Promise<number[]> {
  const { stdout } = await exec(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  const size = 64 * 48 * 3;
  return Array.from({ length: stdout.length / size }, (_, k) =>
    centreFrame(stdout.subarray(k * size, (k + 1) * size)),
  );
}

/**
 * A 3-frame clip: #e94560 on the left, #3080c0 on the right, stored as `store` says. Untagged, it is converted
 * with the matrix its size implies (BT.709 for HD, ffmpeg's default BT.601 below), as HD video is made and as
 * players read it.
 */
async function twoColourClip(dir: string, w: number, h: number, store: 'untagged' | 'bt709' | 'full') {
  const path = join(dir, `${store}-${w}.mp4`);
  const colour = {
    untagged: [
      ...(h >= 720 ? ['-vf', 'scale=out_color_matrix=bt709:out_range=tv'] : []),
      '-pix_fmt',
      'yuv420p',
    ],
    bt709: [
      ...['-vf', 'scale=out_color_matrix=bt709:out_range=tv', '-pix_fmt', 'yuv420p'],
      ...['-colorspace', 'bt709', '-color_range', 'tv'],
    ],
    full: [
      ...['-vf', 'scale=out_color_matrix=bt709:out_range=pc', '-pix_fmt', 'yuvj420p'],
      ...['-colorspace', 'bt709', '-color_range', 'pc'],
    ],
  }[store];
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
    `color=c=0xe94560:s=${w}x${h}:r=24:d=0.125,drawbox=x=${w / 2}:y=0:w=${w / 2}:h=${h}:color=0x3080c0:t=fill`,
    ...['-c:v', 'libx264', '-qp', '0', ...colour, path],
  ]);
  return path;
}

/** The matrix a clip's tags state, as ffprobe names it ('unknown' when none). */
async function statedMatrix(path: string): Promise<string> {
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=color_space'];
  const { stdout } = await exec('ffprobe', [...args, '-of', 'csv=p=0', path]);
  return stdout.trim();
}

/** A comp the clip's size showing it, with a 60% #10204a solid over its bottom half. */
async function plateComp(
  s: Session,
  clip: string,
  w: number,
  h: number,
): Promise<{ comp: string; layer: string }> {
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: w,
    height: h,
    frameRate: 24,
    duration: 3 / 24,
  });
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: clip });
  const { id: layer } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
  const band = await run<{ id: string }>(s, 'layer.addSolid', {
    comp,
    color: '#10204a',
    width: w,
    height: h / 2,
  });
  await run(s, 'property.set', {
    layer: band.id,
    property: 'transform.position',
    value: [w / 2, (3 * h) / 4],
  });
  await run(s, 'property.set', { layer: band.id, property: 'transform.opacity', value: 60 });
  return { comp, layer };
}

/** Frame `index` of a video decoded to RGB (ffmpeg reads the file's colour tags). */
async function videoFrame(path: string, w: number, h: number, index: number): Promise<Buffer> {
  const { stdout } = await exec(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      path,
      '-vf',
      `select=eq(n\\,${index})`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  expect(stdout.length).toBe(w * h * 3);
  return stdout;
}

/** The mean colour of the 8x8 patch centred at (x, y) of an RGB (3) or RGBA (4) frame. */
function patch(px: Buffer, w: number, channels: number, x: number, y: number): Rgb {
  const sum = [0, 0, 0];
  for (let dy = -4; dy < 4; dy++)
    for (let dx = -4; dx < 4; dx++)
      for (let c = 0; c < 3; c++) sum[c]! += px[((y + dy) * w + x + dx) * channels + c]!;
  return sum.map((v) => v / 64) as Rgb;
}

const quarters = (w: number, h: number) => [
  [w / 4, h / 4],
  [(3 * w) / 4, h / 4],
  [w / 4, (3 * h) / 4],
  [(3 * w) / 4, (3 * h) / 4],
];

describe('footage plates', () => {
  for (const [store, w, h, ext] of [
    ['untagged', 64, 48, 'mp4'],
    ['bt709', 64, 48, 'mp4'],
    ['full', 64, 48, 'mp4'],
    ['untagged', 1280, 720, 'mp4'],
    ['bt709', 64, 48, 'webm'],
  ] as const) {
    itWithFfmpeg(
      `${ext} over a ${store} ${w}x${h} clip is the picture of the RGB path (within 3 levels)`,
      async () => {
        const dir = await tempDir();
        const { s, decoders } = await loggedSession();
        const clip = await twoColourClip(dir, w, h, store);
        if (store === 'untagged') expect(await statedMatrix(clip)).toBe('unknown');
        const { comp } = await plateComp(s, clip, w, h);
        expect((await renderTo(s, comp, join(dir, `plate.${ext}`))).completed).toBe(1);
        expect(await decoders()).toEqual([store === 'full' ? 'yuvj420p' : 'yuv420p']);
        expect((await renderTo(s, comp, join(dir, 'png', 'f_[#].png'))).completed).toBe(1);
        const png = await sharp(join(dir, 'png', 'f_1.png'))
          .removeAlpha()
          .raw()
          .toBuffer();
        const video = await videoFrame(join(dir, `plate.${ext}`), w, h, 1);
        const dark = [0x10, 0x20, 0x4a];
        for (const [x, y] of quarters(w, h)) {
          const want = patch(png, w, 3, x!, y!);
          const got = patch(video, w, 3, x!, y!);
          for (let c = 0; c < 3; c++) expect(Math.abs(got[c]! - want[c]!)).toBeLessThanOrEqual(3);
        }
        // The PNG itself is the composition: the clip's colours on top, the 60% band below. Within 5 levels,
        // as ffmpeg's own trip of #e94560 through limited-range BT.709 comes back as (229, 67, 93).
        const topLeft = patch(png, w, 3, w / 4, h / 4);
        [0xe9, 0x45, 0x60].forEach((v, c) => expect(Math.abs(topLeft[c]! - v)).toBeLessThanOrEqual(5));
        const bottomLeft = patch(png, w, 3, w / 4, (3 * h) / 4);
        [0xe9, 0x45, 0x60].forEach((v, c) =>
          expect(Math.abs(bottomLeft[c]! - (0.4 * v + 0.6 * dark[c]!))).toBeLessThanOrEqual(5),
        );
      },
      60_000,
    );
  }

  itWithFfmpeg(
    'a phone clip with rotation metadata is a plate shown upright, at its turned size',
    async () => {
      const dir = await tempDir();
      const { s, decoders } = await loggedSession();
      // Stored 64x48 with the two colours side by side, shown turned a quarter: 48x64, the colours stacked.
      const stored = await twoColourClip(dir, 64, 48, 'untagged');
      const turned = join(dir, 'turned.mp4');
      await exec('ffmpeg', [
        '-v',
        'error',
        '-i',
        stored,
        '-c',
        'copy',
        '-metadata:s:v:0',
        'rotate=90',
        turned,
      ]);
      const { comp } = await plateComp(s, turned, 48, 64);
      expect((await renderTo(s, comp, join(dir, 'plate.mp4'))).completed).toBe(1);
      expect(await decoders()).toEqual(['yuv420p']);
      expect((await renderTo(s, comp, join(dir, 'png', 'f_[#].png'))).completed).toBe(1);
      const png = await sharp(join(dir, 'png', 'f_1.png'))
        .removeAlpha()
        .raw()
        .toBuffer();
      const video = await videoFrame(join(dir, 'plate.mp4'), 48, 64, 1);
      for (const [x, y] of quarters(48, 64)) {
        const [want, got] = [patch(png, 48, 3, x!, y!), patch(video, 48, 3, x!, y!)];
        for (let c = 0; c < 3; c++) expect(Math.abs(got[c]! - want[c]!)).toBeLessThanOrEqual(3);
      }
      // Turned as ffmpeg shows the tag (rotation.test.ts: the left edge ends at the bottom), the clip's right
      // (#3080c0) is the top half of the frame, above the band.
      const top = patch(video, 48, 3, 24, 16);
      [0x30, 0x80, 0xc0].forEach((v, c) => expect(Math.abs(top[c]! - v)).toBeLessThanOrEqual(5));
    },
  );

  itWithFfmpeg('a footage layer that is moved, scaled or not at the bottom takes the RGB path', async () => {
    const dir = await tempDir();
    const { s, decoders } = await loggedSession();
    const clip = await twoColourClip(dir, 64, 48, 'untagged');
    const scaled = await plateComp(s, clip, 64, 48);
    await run(s, 'property.set', { layer: scaled.layer, property: 'transform.scale', value: [50, 50] });
    expect((await renderTo(s, scaled.comp, join(dir, 'scaled.mp4'))).completed).toBe(1);
    const moved = await plateComp(s, clip, 64, 48);
    await run(s, 'property.set', { layer: moved.layer, property: 'transform.position', value: [30, 24] });
    expect((await renderTo(s, moved.comp, join(dir, 'moved.mp4'))).completed).toBe(1);
    const under = await plateComp(s, clip, 64, 48);
    await run(s, 'layer.addSolid', { comp: under.comp, color: '#ffffff', width: 64, height: 48 });
    await run(s, 'layer.move', { comp: under.comp, layer: under.layer, index: 0 });
    expect((await renderTo(s, under.comp, join(dir, 'under.mp4'))).completed).toBe(1);
    expect(await decoders()).toEqual(['vf,rgba', 'vf,rgba', 'vf,rgba']);
  });

  itWithFfmpeg('a plate shows the frames the time map picks, as the RGB path does', async () => {
    const dir = await tempDir();
    const { s, decoders } = await loggedSession();
    const { comp, layer } = await numberedPlateComp(s, dir);
    await run(s, 'layer.setTimeMap', { comp, layer, speed: -1 });
    await run(s, 'layer.setTiming', { comp, layer, startTime: 0.25 });
    expect((await renderTo(s, comp, join(dir, 'reversed.mp4'))).completed).toBe(1);
    expect(await decoders()).toContain('yuv420p');
    expect((await renderTo(s, comp, join(dir, 'png', 'f_[##].png'))).completed).toBe(1);
    const fromMp4 = await mp4Frames(join(dir, 'reversed.mp4'));
    expect(fromMp4).toHaveLength(24);
    const fromPng = await Promise.all(
      Array.from({ length: 24 }, async (_, k) =>
        centreFrame(
          await sharp(join(dir, 'png', `f_${String(k).padStart(2, '0')}.png`))
            .removeAlpha()
            .raw()
            .toBuffer(),
        ),
      ),
    );
    expect(fromMp4).toEqual(fromPng);
    // Before its start time the layer shows nothing (black), then the clip runs backwards from its end.
    expect(new Set(fromMp4.slice(6)).size).toBe(18);
  });

  itWithFfmpeg('a plate in slow motion reads on in one decoder, each frame shown twice', async () => {
    const dir = await tempDir();
    const { s, decoders } = await loggedSession();
    const { comp, layer } = await numberedPlateComp(s, dir);
    await run(s, 'layer.setTimeMap', { comp, layer, speed: 0.5 });
    expect((await renderTo(s, comp, join(dir, 'slow.mp4'))).completed).toBe(1);
    // The frame just read is given again. A plate has no canvas cache: each repeat was a new seeking decoder
    // (12 here), and without this a second decoder decoding every frame too.
    expect(await decoders()).toEqual(['yuv420p']);
    expect(await mp4Frames(join(dir, 'slow.mp4'))).toEqual(
      Array.from({ length: 24 }, (_, k) => Math.floor(k / 2)),
    );
  });

  itWithFfmpeg('a stopped plate render leaves no ffmpeg running and no file behind', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const clip = await numberedClip(dir, 'h264', '24', 240, { size: '320x180' });
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      width: 320,
      height: 180,
      frameRate: 24,
      duration: 10,
    });
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: clip });
    await run(s, 'layer.addFootage', { comp, footage });
    await run(s, 'layer.addSolid', { comp, color: '#ffffff', width: 40, height: 40 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'out', 'plate.mp4') });
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    // A plate's decoder (the clip's own 4:2:0 samples, no filter) runs while frames are rendered...
    const plateDecoder = () => ffmpegChildren().some((c) => c.args.includes('-pix_fmt yuv420p pipe:1'));
    expect(await untilTrue(plateDecoder, 10_000)).toBe(true);
    s.renderQueue.stop();
    const r = await job;
    expect(r.ok && r.result.stopped).toBe(1);
    // ...and it, the other workers' decoders and the encoder are gone once the job has ended.
    expect(await untilTrue(() => ffmpegChildren().length === 0, 3000)).toBe(true);
    // The folder the render made for its file went with it: only the clip is left.
    expect(await readdir(dir)).toEqual([basename(clip)]);
    (await s.renderer()).dispose();
  });
});
