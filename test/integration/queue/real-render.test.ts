// The render queue with the real compositor: snapshot isolation checked pixel for pixel, and every format
// read back by an independent decoder.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { createSession, type Session } from '../../../src/session.js';
import { createFrameRenderer } from '../../../src/render/index.js';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';
import { tempDir } from '../../helpers/tmp.js';
import { listDir, run } from '../../helpers/queue.js';
import { probeImage, probeVideo } from '../../helpers/probe.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';

async function scene(s: Session, width = 160, height = 90): Promise<{ comp: string; layers: string[] }> {
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    name: 'Scene',
    width,
    height,
    frameRate: 24,
    duration: 1,
  });
  const layers: string[] = [];
  layers.push((await run<{ id: string }>(s, 'layer.addSolid', { color: '#204060' })).id);
  const box = (
    await run<{ id: string }>(s, 'layer.addShape', {
      shape: { type: 'rectangle', size: [40, 30] },
      fill: '#ff8800',
    })
  ).id;
  await run(s, 'property.setKeyframe', {
    layer: box,
    property: 'transform.position',
    time: 0,
    value: [20, 45],
  });
  await run(s, 'property.setKeyframe', {
    layer: box,
    property: 'transform.position',
    time: 1,
    value: [140, 45],
  });
  layers.push(box);
  layers.push((await run<{ id: string }>(s, 'layer.addText', { text: 'Hi', fontSize: 30 })).id);
  return { comp, layers };
}

async function decodeRgba(path: string): Promise<Buffer> {
  return sharp(path).ensureAlpha().raw().toBuffer();
}

describe('render queue with the real renderer', () => {
  it('renders the snapshot taken at start; edits and deletions mid-render do not reach the files', async () => {
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 2 } });
    const { comp, layers } = await scene(s);
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[##].png') });
    const snapshot = s.engine.document;
    const job = s.engine.execute<JobResult>('renderQueue.render', {});
    // Edits land while the job runs (it has not returned yet): delete the box, fade the solid, delete the text.
    await run(s, 'layer.delete', { comp, layer: layers[1] });
    await run(s, 'property.set', { layer: layers[0], property: 'transform.opacity', value: 10 });
    await run(s, 'layer.delete', { comp, layer: layers[2] });
    expect(s.renderQueue.running).toBe(true);
    const r = await job;
    if (!r.ok) throw new Error(r.error.message);
    expect(r.result.completed).toBe(1);
    const renderer = createFrameRenderer({ readFile: createNodePorts().readFile });
    for (const frame of [0, 12, 23]) {
      const expected = await renderer.renderFrame(snapshot, comp, frame / 24, {
        scale: 1,
        transparent: false,
        missingFootage: 'fail',
      });
      const got = await decodeRgba(join(dir, `f_${String(frame).padStart(2, '0')}.png`));
      expect(got.equals(expected.rgba)).toBe(true);
    }
    renderer.dispose();
  });

  const decodes = async (format: string, name: string, files: number) => {
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 2 } });
    const { comp } = await scene(s, 160, 90);
    await run(s, 'renderQueue.add', { comp, output: join(dir, name), format, scale: 0.5 });
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.completed).toBe(1);
    // The files and their manifest.
    expect(await listDir(dir)).toHaveLength(files + 1);
    const video = ['mp4', 'webm', 'mov'].includes(format);
    const path = join(dir, files > 1 ? name.replace('[##]', '05') : name);
    const d = video ? await probeVideo(path) : await probeImage(path);
    // 90 * 0.5 = 45 rows; H.264 and VP9 (yuv420p) pad to an even 46.
    const height = video && format !== 'mov' ? 46 : 45;
    expect(d).toMatchObject({ frames: files > 1 ? 1 : 24, width: 80, height });
  };
  it.each([
    ['png', 'p_[##].png', 24],
    ['png-fast', 'q_[##].png', 24],
    ['jpeg', 'j_[##].jpg', 24],
    ['webp', 'w_[##].webp', 24],
  ])('%s: decodes with the right frame count and size', decodes);
  itWithFfmpeg.each([
    ['gif', 'a.gif', 1],
    ['webp-anim', 'a.webp', 1],
    ['mp4', 'v.mp4', 1],
    ['webm', 'v.webm', 1],
    ['mov', 'v.mov', 1],
  ])('%s: decodes with the right frame count and size', decodes);
});
