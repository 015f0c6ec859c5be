/** Rotation metadata is applied when decoding: a phone clip shows upright, at its turned size. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { mediaRenderer } from '../../helpers/media-render.js';
import { tempDir } from '../../helpers/tmp.js';

describeWithFfmpeg('rotated video', () => {
  itWithFfmpeg('is drawn turned as ffmpeg displays it', async () => {
    const dir = await tempDir();
    const plain = join(dir, 'plain.mp4');
    const turned = join(dir, 'turned.mp4');
    const quiet = ['-hide_banner', '-loglevel', 'error'];
    // Red, with a blue band down the left edge.
    execFileSync('ffmpeg', [
      ...[
        ...quiet,
        '-f',
        'lavfi',
        '-i',
        'color=red:s=64x48:r=25:d=1,drawbox=x=0:y=0:w=8:h=48:color=blue:t=fill',
      ],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv444p', plain],
    ]);
    execFileSync('ffmpeg', [...quiet, '-i', plain, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', turned]);
    const engine = newEngine();
    const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
      width: 48,
      height: 64,
      frameRate: 25,
      duration: 1,
    });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: turned });
    await run(engine, 'layer.addFootage', { footage });
    const f = await (await mediaRenderer()).renderFrame(engine.document, comp, 0, { missingFootage: 'fail' });
    const px = (x: number, y: number) => [...f.rgba.subarray((y * 48 + x) * 4, (y * 48 + x) * 4 + 3)];
    // The band that was on the left runs along the bottom now; the rest is red.
    expect(px(24, 62)[2]).toBeGreaterThan(200);
    expect(px(24, 62)[0]).toBeLessThan(60);
    expect(px(24, 10)[0]).toBeGreaterThan(200);
    expect(px(2, 10)[2]).toBeLessThan(60);
  });
});
