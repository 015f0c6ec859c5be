import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { addComp, failCode, listDir, queueSession, run } from '../../helpers/queue.js';
import { probeImage, probeVideo } from '../../helpers/probe.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';

describe('exporters (stand-in renderer)', () => {
  itWithFfmpeg.each([
    ['mp4', 'h264'],
    ['webm', 'vp9'],
    ['mov', 'prores'],
  ])('%s decodes with the right frame count and size', async (format, codec) => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c', width: 33, height: 19, frameRate: 12 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, `out.${format}`) });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.completed).toBe(1);
    expect(r.items[0]!.files!.count).toBe(1);
    expect(await listDir(dir)).toEqual([`out.${format}`, `out.${format}.manifest.json`]);
    const v = await probeVideo(join(dir, `out.${format}`));
    expect(v.codec).toBe(codec);
    expect(v.frames).toBe(12);
    // yuv420p formats pad odd sizes to even ones; an opaque ProRes 4:2:2 MOV an odd width only (its chroma
    // halves the width alone).
    expect([v.width, v.height]).toEqual(format === 'mov' ? [34, 19] : [34, 20]);
  });

  itWithFfmpeg.each([
    ['gif', 'anim.gif', 'gif'],
    ['webp-anim', 'anim.webp', 'webp'],
  ])('%s decodes with the right frame count and size', async (format, name, codec) => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c', width: 30, height: 20 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, name), format });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.completed).toBe(1);
    const d = await probeImage(join(dir, name));
    expect(d).toMatchObject({ frames: 10, width: 30, height: 20, codec });
  });

  it.each([
    ['png-fast', 'p_[##].png', 'png'],
    ['jpeg', 'j_[##].jpg', 'jpeg'],
    ['webp', 'w_[##].webp', 'webp'],
  ])('%s sequence decodes', async (format, name, codec) => {
    const dir = await tempDir();
    const s = queueSession();
    const comp = await addComp(s, { name: 'c', width: 30, height: 20 });
    await run(s, 'renderQueue.add', { comp, output: join(dir, name), format });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.items[0]!.files!.count).toBe(10);
    const d = await probeImage(join(dir, name.replace('[##]', '07')));
    expect(d).toMatchObject({ frames: 1, width: 30, height: 20, codec });
  });

  it('fails video with missing_dependency without ffmpeg while PNG keeps working', async () => {
    const dir = await tempDir();
    const s = queueSession({ findFfmpeg: async () => null });
    const comp = await addComp(s, { name: 'c' });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'v.mp4') });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'p_[##].png') });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.failed).toBe(1);
    expect(r.completed).toBe(1);
    expect(r.items[0]!.error!.code).toBe('missing_dependency');
    // The PNG frames and their manifest; nothing of the video.
    expect((await listDir(dir)).length).toBe(11);
    expect(await listDir(dir)).not.toContain('v.mp4.manifest.json');
  });

  it('an empty queue cannot be rendered', async () => {
    const s = queueSession();
    expect(await failCode(s, 'renderQueue.render', {})).toBe('command_disabled');
  });
});
