// RGB + Alpha render queue items with the real compositor: a 50%-opaque red solid over a transparent
// background must come out as straight alpha (255,0,0,~128) in every format that carries alpha, with the
// uncovered area fully transparent; formats without alpha are refused; opaque items stay flattened.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createSession, type Session } from '../../../src/session.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { probeImage } from '../../helpers/probe.js';
import { failCode, listDir, run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
const W = 64;
const H = 32;
// The solid is 32x32, centred: x 16..47 is red at 50% opacity, x < 16 and x >= 48 show the background.
const COVERED = [32, 16] as const;
const CLEAR = [4, 16] as const;

/** A 64x32 comp on a blue background with a centred 32x32 red solid at 50% opacity. */
async function overlay(s: Session, duration = 0.3): Promise<string> {
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    name: 'Overlay',
    width: W,
    height: H,
    frameRate: 10,
    duration,
    backgroundColor: '#0000ff',
  });
  const { id } = await run<{ id: string }>(s, 'layer.addSolid', {
    comp,
    color: '#ff0000',
    width: 32,
    height: 32,
  });
  await run(s, 'property.set', { layer: id, property: 'transform.opacity', value: 50 });
  return comp;
}

async function renderOne(format: string, name: string, alpha = true): Promise<{ dir: string; r: JobResult }> {
  const dir = await tempDir();
  const s = createSession({ renderQueue: { maxWorkers: 2 } });
  const comp = await overlay(s);
  await run(s, 'renderQueue.add', { comp, output: join(dir, name), format, alpha });
  const r = await run<JobResult>(s, 'renderQueue.render', {});
  expect(r.completed).toBe(1);
  expect(r.items[0]!.alpha).toBe(alpha);
  return { dir, r };
}

type Px = [number, number, number, number];

function pixelOf(data: Uint8Array, width: number, [x, y]: readonly [number, number]): Px {
  const i = (y * width + x) * 4;
  return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
}

/** The first frame of an image (sequence frame or animated first page) as straight RGBA, via sharp. */
async function imagePixels(
  path: string,
): Promise<{ channels: number; at(p: readonly [number, number]): Px }> {
  const meta = await sharp(path).metadata();
  const { data, info } = await sharp(path).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { channels: meta.channels!, at: (p) => pixelOf(data, info.width, p) };
}

/** Decodes the first video frame to straight RGBA with ffmpeg (`decoder` forces e.g. libvpx-vp9 for alpha). */
async function videoPixels(
  path: string,
  decoder: string[] = [],
): Promise<(p: readonly [number, number]) => Px> {
  const { stdout } = await exec(
    'ffmpeg',
    ['-v', 'error', ...decoder, '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'],
    { encoding: 'buffer', maxBuffer: 1 << 24 },
  );
  const width = W;
  return (p) => pixelOf(stdout, width, p);
}

async function probeStream(path: string): Promise<Record<string, unknown>> {
  const { stdout } = await exec('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,pix_fmt,profile:stream_tags',
    '-of',
    'json',
    path,
  ]);
  return (JSON.parse(stdout) as { streams: Array<Record<string, unknown>> }).streams[0]!;
}

const near = (got: number, want: number, tolerance: number) =>
  expect(Math.abs(got - want)).toBeLessThanOrEqual(tolerance);

function expectHalfRed(px: Px, colorTolerance: number, alphaTolerance = 2): void {
  near(px[0], 255, colorTolerance);
  near(px[1], 0, colorTolerance);
  near(px[2], 0, colorTolerance);
  near(px[3], 128, alphaTolerance);
}

describe('RGB + Alpha render queue items', () => {
  it.each([
    ['png', 'a_[#].png'],
    ['png-fast', 'f_[#].png'],
  ])('%s: RGBA frames with straight alpha, transparent where nothing is drawn', async (format, name) => {
    const { dir } = await renderOne(format, name);
    // Three frames and their manifest.
    expect(await listDir(dir)).toHaveLength(4);
    const img = await imagePixels(join(dir, name.replace('[#]', '1')));
    expect(img.channels).toBe(4);
    // Straight, not premultiplied: the colour is full red, the coverage is in alpha only.
    expect(img.at(COVERED)).toEqual([255, 0, 0, 128]);
    expect(img.at(CLEAR)[3]).toBe(0);
  });

  it('webp sequence: RGBA frames with straight alpha', async () => {
    const { dir } = await renderOne('webp', 'w_[#].webp');
    const img = await imagePixels(join(dir, 'w_0.webp'));
    expect(img.channels).toBe(4);
    expectHalfRed(img.at(COVERED), 6);
    expect(img.at(CLEAR)[3]).toBe(0);
  });

  it('an opaque PNG item is still flattened onto the background (no alpha below 255)', async () => {
    const { dir } = await renderOne('png', 'o_[#].png', false);
    const img = await imagePixels(join(dir, 'o_0.png'));
    // 50% red over blue, fully opaque; the uncovered area is the blue background.
    const mixed = img.at(COVERED);
    expect(mixed[3]).toBe(255);
    near(mixed[0], 128, 2);
    near(mixed[2], 127, 2);
    expect(img.at(CLEAR)).toEqual([0, 0, 255, 255]);
  });

  itWithFfmpeg(
    'webm: VP9 with an alpha channel (alpha_mode), decodes with alpha via libvpx-vp9',
    async () => {
      const { dir } = await renderOne('webm', 'v.webm');
      const path = join(dir, 'v.webm');
      const stream = await probeStream(path);
      expect(stream.codec_name).toBe('vp9');
      // ffprobe's native VP9 decoder does not see the alpha side stream; the container flags it instead.
      expect((stream.tags as Record<string, string>).alpha_mode).toBe('1');
      const at = await videoPixels(path, ['-c:v', 'libvpx-vp9']);
      expectHalfRed(at(COVERED), 12, 6);
      expect(at(CLEAR)[3]).toBe(0);
    },
  );

  itWithFfmpeg('mov: ProRes 4444 with a 10-bit alpha plane', async () => {
    const { dir } = await renderOne('mov', 'v.mov');
    const path = join(dir, 'v.mov');
    const stream = await probeStream(path);
    expect(stream.codec_name).toBe('prores');
    expect(stream.profile).toBe('4444');
    // Encoded as yuva444p10le; ffmpeg's ProRes decoder may hand it back at 12 bits.
    expect(stream.pix_fmt).toMatch(/^yuva444p1[02]le$/);
    const at = await videoPixels(path);
    expectHalfRed(at(COVERED), 6, 2);
    expect(at(CLEAR)[3]).toBe(0);
  });

  itWithFfmpeg('gif: 1-bit transparency where nothing is drawn', async () => {
    const { dir } = await renderOne('gif', 'a.gif');
    const path = join(dir, 'a.gif');
    expect(await probeImage(path)).toMatchObject({ frames: 3, width: W, height: H });
    const img = await imagePixels(path);
    expect(img.at(CLEAR)[3]).toBe(0);
    // 50% coverage is at the threshold: it is kept (opaque red), never dropped to transparent.
    expect(img.at(COVERED)).toEqual([255, 0, 0, 255]);
  });

  itWithFfmpeg('webp-anim: animated WebP with straight alpha', async () => {
    const { dir } = await renderOne('webp-anim', 'a.webp');
    const path = join(dir, 'a.webp');
    // (libwebp merges identical frames, so the frame count is not checked here; real-render.test.ts does.)
    expect(await probeImage(path)).toMatchObject({ width: W, height: H });
    const img = await imagePixels(path);
    expect(img.channels).toBe(4);
    expectHalfRed(img.at(COVERED), 6);
    expect(img.at(CLEAR)[3]).toBe(0);
  });

  it.each([
    ['jpeg', 'j_[#].jpg'],
    ['mp4', 'v.mp4'],
  ])('%s with alpha is refused and the document is unchanged', async (format, name) => {
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 2 } });
    const comp = await overlay(s);
    const before = s.engine.document;
    expect(await failCode(s, 'renderQueue.add', { comp, output: join(dir, name), format, alpha: true })).toBe(
      'bad_argument',
    );
    expect(s.engine.document).toBe(before);
    expect(s.engine.document.renderQueue).toEqual([]);
  });

  // Held to renderQueue.add's rules when opened (it used to open and fail at render time); planItem still
  // refuses it if it reaches a render (test/unit/queue/plan.test.ts).
  it('a hand-edited project asking jpeg with alpha is refused when opened, naming the field, writing nothing', async () => {
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 2 } });
    const comp = await overlay(s);
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'j_[#].jpg') });
    const path = join(dir, 'p.ecproj');
    await run(s, 'project.save', { path });
    const text = (await readFile(path, 'utf8')).replace('"alpha": false', '"alpha": true');
    const s2 = createSession({ renderQueue: { maxWorkers: 2 } });
    await writeFile(path, text);
    const before = s2.engine.document;
    const opened = await s2.engine.execute('project.open', { path });
    expect(opened).toMatchObject({ ok: false, error: { code: 'invalid_project' } });
    if (!opened.ok) expect(opened.error.message).toContain('renderQueue[0].alpha');
    expect(s2.engine.document).toBe(before);
    expect(await listDir(dir)).toEqual(['p.ecproj']);
  });
});
