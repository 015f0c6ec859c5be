// Every video format states its colour description and converts RGB to YUV with it: known colour patches,
// rendered by the real compositor through the render queue, must carry BT.709 primaries/transfer, the matrix
// of their size (BT.709 from 720 lines, BT.601 below) and limited range, and decode (by ffmpeg, honouring the
// tags) to within 2 levels of the source in every channel.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { createSession } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);

/** Brand red, primaries, mid grey, the ends of the range and a skin tone: 4 x 2 patches. */
const PATCHES = ['#e94560', '#ff0000', '#00ff00', '#0000ff', '#808080', '#080808', '#f8f8f8', '#c68642'];
const TOLERANCE = 2;

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [n >> 16, (n >> 8) & 255, n & 255];
}

/** A comp of `width` x `height` tiled with PATCHES (4 across, 2 down) as solid layers. */
async function renderPatches(
  width: number,
  height: number,
  format: string,
  alpha: boolean,
): Promise<{ path: string; centres: [number, number][] }> {
  const dir = await tempDir();
  const s = createSession({ renderQueue: { maxWorkers: 2 } });
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    name: 'Patches',
    width,
    height,
    frameRate: 10,
    duration: 0.2,
  });
  const w = width / 4;
  const h = height / 2;
  const centres: [number, number][] = [];
  for (const [i, color] of PATCHES.entries()) {
    const centre: [number, number] = [(i % 4) * w + w / 2, Math.floor(i / 4) * h + h / 2];
    // Sampled at whole pixels (odd sizes make fractional centres).
    centres.push([Math.floor(centre[0]), Math.floor(centre[1])]);
    const { id } = await run<{ id: string }>(s, 'layer.addSolid', {
      comp,
      color,
      width: Math.ceil(w),
      height: Math.ceil(h),
    });
    await run(s, 'property.set', { layer: id, property: 'transform.position', value: centre });
  }
  const path = join(dir, `patches.${format}`);
  await run(s, 'renderQueue.add', { comp, output: path, format, alpha });
  const r = await run<JobResult>(s, 'renderQueue.render', {});
  expect(r.completed).toBe(1);
  return { path, centres };
}

async function probeColour(path: string): Promise<Record<string, string>> {
  const { stdout } = await exec('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-of', 'json'],
    ...['-show_entries', 'stream=color_space,color_primaries,color_transfer,color_range'],
    path,
  ]);
  return (JSON.parse(stdout) as { streams: Record<string, string>[] }).streams[0]!;
}

/** The first frame as rgb24, converted with the matrix and range the stream states (as a player does). */
async function decodeRgb(path: string): Promise<Buffer> {
  const { stdout } = await exec(
    'ffmpeg',
    [
      ...['-v', 'error', '-i', path, '-frames:v', '1'],
      ...['-vf', 'scale=in_color_matrix=auto:in_range=auto:flags=accurate_rnd+full_chroma_int,format=rgb24'],
      ...['-f', 'rawvideo', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 1 << 26 },
  );
  return stdout;
}

/** Asserts the centre of every patch decoded to its colour, within TOLERANCE per channel. */
function expectPatches(frame: Buffer, width: number, centres: [number, number][]): void {
  for (const [i, hex] of PATCHES.entries()) {
    const [x, y] = centres[i]!;
    const at = (y * width + x) * 3;
    const got = [frame[at]!, frame[at + 1]!, frame[at + 2]!];
    const worst = Math.max(...rgb(hex).map((v, c) => Math.abs(v - got[c]!)));
    expect(worst, `${hex} decoded as ${got.join(',')}`).toBeLessThanOrEqual(TOLERANCE);
  }
}

const CASES = [
  { format: 'mp4', alpha: false },
  { format: 'webm', alpha: false },
  { format: 'webm', alpha: true },
  { format: 'mov', alpha: false },
  { format: 'mov', alpha: true },
] as const;

describeWithFfmpeg('video colour', () => {
  for (const { format, alpha } of CASES) {
    itWithFfmpeg(
      `${format}${alpha ? ' with alpha' : ''} at 1280x720: BT.709, limited range, patches within 2 levels`,
      async () => {
        const width = 1280;
        const height = 720;
        const { path, centres } = await renderPatches(width, height, format, alpha);
        expect(await probeColour(path)).toEqual({
          color_space: 'bt709',
          color_primaries: 'bt709',
          color_transfer: 'bt709',
          color_range: 'tv',
        });
        const frame = await decodeRgb(path);
        expect(frame.length).toBe(width * height * 3);
        expectPatches(frame, width, centres);
      },
      60_000,
    );
  }

  itWithFfmpeg(
    'SD (640x360) MP4 uses the BT.601 matrix with BT.709 primaries and transfer, and decodes right',
    async () => {
      const width = 640;
      const height = 360;
      const { path, centres } = await renderPatches(width, height, 'mp4', false);
      expect(await probeColour(path)).toEqual({
        color_space: 'smpte170m',
        color_primaries: 'bt709',
        color_transfer: 'bt709',
        color_range: 'tv',
      });
      expectPatches(await decodeRgb(path), width, centres);
    },
    60_000,
  );

  itWithFfmpeg(
    'an odd-sized (643x361) MP4 is padded to even sizes with black and decodes right',
    async () => {
      const { path, centres } = await renderPatches(643, 361, 'mp4', false);
      const frame = await decodeRgb(path);
      expect(frame.length).toBe(644 * 362 * 3);
      expectPatches(frame, 644, centres);
      // The padding, the last column and row, is black: luma 16 (its chroma is shared with the pixels beside it).
      const { stdout: yuv } = await exec(
        'ffmpeg',
        ['-v', 'error', '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-'],
        { encoding: 'buffer', maxBuffer: 1 << 26 },
      );
      const luma = (x: number, y: number) => yuv[y * 644 + x]!;
      for (const [x, y] of [
        [643, 100],
        [100, 361],
        [643, 361],
      ] as const)
        expect(Math.abs(luma(x, y) - 16), `luma at ${x},${y}`).toBeLessThanOrEqual(TOLERANCE);
      // The last real pixel, in the skin-tone patch (luma ~141), is not padding.
      expect(luma(642, 360)).toBeGreaterThan(100);
    },
    60_000,
  );

  itWithFfmpeg(
    'an odd-width (641x361) ProRes 422 MOV is padded to 642 wide with black and its last column decodes right',
    async () => {
      const { path, centres } = await renderPatches(641, 361, 'mov', false);
      // Read at the file's own width, so that an unpadded file fails on its colours rather than its stride.
      const { stdout: probed } = await exec('ffprobe', [
        ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width', '-of', 'csv=p=0', path],
      ]);
      const width = Number(probed.trim());
      const { stdout: yuv } = await exec(
        'ffmpeg',
        ['-v', 'error', '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'yuv422p10le', '-'],
        { encoding: 'buffer', maxBuffer: 1 << 26 },
      );
      const cw = Math.ceil(width / 2);
      const luma = (x: number, y: number) => yuv.readUInt16LE((y * width + x) * 2);
      const chroma = (plane: 0 | 1, x: number, y: number) =>
        yuv.readUInt16LE((width * 361 + plane * cw * 361 + y * cw + x) * 2);
      // In 4:2:2 each chroma sample covers two columns. Sample 320 covers 640, the composition's last column,
      // in the skin-tone patch (bottom right): unpadded (641 = 1 mod 16) it decoded as 4 of 1023 on every row,
      // a green column; padded it also covers 641, black (chroma 512), so it lies between the two. Sample 319
      // matches the patch further in (sample 300). 640 keeps its luma (~141 of 255); 641, the padding, is
      // black (10-bit luma 64).
      for (const y of [200, 300, 360]) {
        for (const plane of [0, 1] as const) {
          const inside = chroma(plane, 300, y);
          const edge = chroma(plane, 320, y);
          expect(edge, `chroma ${plane} at 320,${y}`).toBeGreaterThanOrEqual(
            Math.min(inside, 512) - 4 * TOLERANCE,
          );
          expect(edge, `chroma ${plane} at 320,${y}`).toBeLessThanOrEqual(
            Math.max(inside, 512) + 4 * TOLERANCE,
          );
          expect(Math.abs(chroma(plane, 319, y) - inside), `chroma ${plane} at 319,${y}`).toBeLessThanOrEqual(
            4 * TOLERANCE,
          );
        }
        expect(Math.abs(luma(640, y) - 141 * 4), `luma at 640,${y}`).toBeLessThanOrEqual(4 * TOLERANCE);
      }
      expect(width).toBe(642);
      for (const y of [200, 300, 360])
        expect(Math.abs(luma(641, y) - 64), `luma at 641,${y}`).toBeLessThanOrEqual(4 * TOLERANCE);
      expectPatches(await decodeRgb(path), 642, centres);
    },
    60_000,
  );
});
