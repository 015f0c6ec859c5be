import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { probeImage, probeVideo } from '../../helpers/probe.js';
import { addComp, queueSession, run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);

/** ffprobe's codec and profile of the first video stream. */
async function codecProfile(path: string): Promise<{ codec: string; profile: string }> {
  const { stdout } = await exec('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,profile'],
    ...['-of', 'json', path],
  ]);
  const s = (JSON.parse(stdout) as { streams: { codec_name: string; profile: string }[] }).streams[0]!;
  return { codec: s.codec_name, profile: s.profile };
}

/** Renders one item of a noise composition (incompressible frames: sizes follow the quality settings). */
async function renderOne(name: string, params: Record<string, unknown>, dir: string): Promise<string> {
  const s = queueSession({ maxWorkers: 1 });
  const comp = await addComp(s, { name: 'noise', width: 64, height: 48, frameRate: 10 });
  const output = join(dir, name);
  await run(s, 'renderQueue.add', { comp, output, ...params });
  const r = await run<JobResult>(s, 'renderQueue.render', {});
  expect(r.completed, JSON.stringify(r.items[0]?.error)).toBe(1);
  return output;
}

const size = async (path: string) => (await stat(path)).size;

describe('item encoding reaches the encoders', () => {
  itWithFfmpeg('codec h265 writes HEVC; ProRes profiles are the ones asked for', async () => {
    const dir = await tempDir();
    expect(await codecProfile(await renderOne('a.mp4', { encoding: { codec: 'h265' } }, dir))).toMatchObject({
      codec: 'hevc',
    });
    expect((await codecProfile(await renderOne('b.mp4', {}, dir))).codec).toBe('h264');
    const proxy = await codecProfile(await renderOne('p.mov', { encoding: { proresProfile: 'proxy' } }, dir));
    expect(proxy).toEqual({ codec: 'prores', profile: 'Proxy' });
    const lt = await codecProfile(await renderOne('l.mov', { encoding: { proresProfile: 'lt' } }, dir));
    expect(lt.profile).toBe('LT');
    expect((await codecProfile(await renderOne('d.mov', {}, dir))).profile).toBe('HQ');
  });

  itWithFfmpeg('a lower CRF gives a bigger file (H.264 and VP9)', async () => {
    const dir = await tempDir();
    const fine = await renderOne('fine.mp4', { encoding: { crf: 10, x264Preset: 'ultrafast' } }, dir);
    const coarse = await renderOne('coarse.mp4', { encoding: { crf: 40, x264Preset: 'ultrafast' } }, dir);
    expect(await size(fine)).toBeGreaterThan((await size(coarse)) * 1.5);
    const vp9Fine = await renderOne('fine.webm', { encoding: { crf: 10 } }, dir);
    const vp9Coarse = await renderOne('coarse.webm', { encoding: { crf: 55 } }, dir);
    expect(await size(vp9Fine)).toBeGreaterThan(await size(vp9Coarse));
  });

  it('JPEG sequence quality sets the file size', async () => {
    const dir = await tempDir();
    await renderOne('hi_[##].jpg', { encoding: { quality: 95 }, frameRange: { start: 0, end: 0 } }, dir);
    await renderOne('lo_[##].jpg', { encoding: { quality: 10 }, frameRange: { start: 0, end: 0 } }, dir);
    expect(await size(join(dir, 'hi_00.jpg'))).toBeGreaterThan((await size(join(dir, 'lo_00.jpg'))) * 2);
  });

  itWithFfmpeg('animated WebP quality and GIF palette/dither settings encode', async () => {
    const dir = await tempDir();
    const hi = await renderOne('hi.webp', { encoding: { quality: 95 } }, dir);
    const lo = await renderOne('lo.webp', { encoding: { quality: 5 } }, dir);
    expect(await size(hi)).toBeGreaterThan(await size(lo));
    const gif = await renderOne('a.gif', { encoding: { gifPalette: 'per-frame', gifDither: 'none' } }, dir);
    expect(await probeImage(gif)).toMatchObject({ frames: 10, width: 64, height: 48 });
    const bayer = await renderOne(
      'b.gif',
      { alpha: true, encoding: { gifPalette: 'global', gifDither: 'bayer' } },
      dir,
    );
    expect((await probeImage(bayer)).frames).toBe(10);
    expect((await probeVideo(await renderOne('c.webm', { encoding: { crf: 40 } }, dir))).codec).toBe('vp9');
  });
});
