// Numbered TIFF, EXR or DPX frames (what VFX and scanning pipelines hand over) cannot make an image sequence,
// and the refusal's remedy was the one for a video: "Import it without sequence: a video or sound file plays by
// itself". Done, that imports one frame as one-frame footage: the shot silently becomes a still. The remedy
// now names the conversion to a PNG sequence, numbers kept, and following it gives the sequence.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);

describeWithFfmpeg('numbered frames of an image format sequences are not made of', () => {
  itWithFfmpeg('TIFF frames from 1001: refused, and the remedy converts them to a PNG sequence', async () => {
    const dir = join(await tempDir(), 'shot');
    await mkdir(dir);
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x48:r=24:d=0.25'],
      ...['-start_number', '1001', join(dir, 'plate_%04d.tif')],
    ]);
    const engine = newEngine();
    for (const path of [join(dir, 'plate_1001.tif'), join(dir, 'plate_%04d.tif')]) {
      const r = await engine.execute('file.import', { path, sequence: true });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('bad_argument');
      expect(r.error.remediation).not.toMatch(/without "sequence"/);
    }
    const r = await engine.execute('file.import', { path: join(dir, 'plate_1001.tif'), sequence: true });
    if (r.ok) return;
    // The command the remedy gives, run in the frames' folder, makes the PNG sequence it names.
    const command = /\((ffmpeg [^)]*)\)/.exec(r.error.remediation)?.[1];
    expect(command).toBeDefined();
    const args = [...command!.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
    await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { cwd: dir });
    const { id } = await run<{ id: string }>(engine, 'file.import', {
      path: join(dir, 'plate_1001.png'),
      sequence: true,
    });
    const item = engine.document.items.find((i) => i.id === id) as FootageItem;
    expect(item.media).toMatchObject({ kind: 'sequence', frameCount: 6 });
    expect(item.media!.sequence).toMatchObject({ first: 1001, last: 1006 });
  });
});
