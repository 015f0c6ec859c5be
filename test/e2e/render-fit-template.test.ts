/**
 * A template whose footage input feeds a layer fitted with cover: `effectcraft-cli render --props` given a clip
 * of another shape (a phone's vertical one for a landscape default) fills the frame with it, where without the
 * fit following the new file it showed a thin band with black either side. The project file is not changed.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import { newEngine, run } from '../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../helpers/ffmpeg.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

const quiet = ['-hide_banner', '-loglevel', 'error'];

function clip(path: string, size: string, color: string): string {
  execFileSync('ffmpeg', [
    ...[...quiet, '-f', 'lavfi', '-i', `color=${color}:s=${size}:r=10:d=1`],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', path],
  ]);
  return path;
}

describeWithFfmpeg('a fitted template clip', () => {
  itWithFfmpeg("--props with a clip of another shape fills the frame by the layer's fit", async () => {
    const dir = await tempDir();
    const wide = clip(join(dir, 'wide.mp4'), '160x90', 'red');
    const tall = clip(join(dir, 'tall.mp4'), '90x160', 'blue');
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'T', width: 64, height: 36, frameRate: 10, duration: 1 });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: wide });
    const { id: layer } = await run<{ id: string }>(engine, 'layer.addFootage', { footage, fit: 'cover' });
    await run(engine, 'input.define', {
      name: 'clip',
      type: 'footage',
      bind: [{ layer, property: 'source' }],
    });
    await run(engine, 'renderQueue.add', {
      comp: 'T',
      output: join(dir, 'out', 'f_[#].png'),
      frameRange: { start: 0, end: 0 },
    });
    const project = join(dir, 'template.ecproj');
    await run(engine, 'project.save', { path: project });
    const saved = await readFile(project, 'utf8');

    const r = await runCli(['render', project, '--props', JSON.stringify({ clip: tall })], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const { data, info } = await sharp(join(dir, 'out', 'f_0.png'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Every corner and the middle are the blue clip's: 90x160 covering 64x36 is 64x114, cropped top and bottom
    // (at the default's scale, 40%, it was 36x64: black bars left and right).
    for (const [x, y] of [
      [1, 1],
      [62, 1],
      [1, 34],
      [62, 34],
      [32, 18],
    ] as const) {
      const i = (y * info.width + x) * info.channels;
      const [red, , blue, alpha = 255] = data.subarray(i, i + info.channels);
      expect({ x, y, blue: blue! > 200, red: red! < 40, alpha }).toEqual({
        x,
        y,
        blue: true,
        red: true,
        alpha: 255,
      });
    }
    expect(await readFile(project, 'utf8')).toBe(saved);
  });
});
