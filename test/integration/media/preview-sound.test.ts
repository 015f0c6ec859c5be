/**
 * The studio's sound mix (src/render/audio/preview-sound.ts) on real files: a missing file's sound is left out
 * with a warning naming its footage while the rest plays; a file swapped for a link out of the read roots is
 * refused through the confined ports, never mixed; no ffmpeg is missing_dependency.
 */
import { rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import type { Engine } from '../../../src/engine/index.js';
import { mixPreviewSound, planPreviewSound } from '../../../src/render/audio/preview-sound.js';
import { findFfmpeg } from '../../../src/render/queue/exporters/ffmpeg.js';
import { createSession } from '../../../src/session.js';
import { decodeSound, frequency, RATE, tone } from '../../helpers/audio.js';
import { run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { layout } from '../confinement/fixture.js';

/** A 2 s composition with one audio layer per file. */
async function compWith(engine: Engine, files: string[]): Promise<string> {
  const comp = await run<{ id: string }>(engine, 'comp.new', {
    name: 'Sound',
    width: 64,
    height: 64,
    frameRate: 25,
    duration: 2,
  });
  for (const path of files) {
    const item = await run<{ id: string }>(engine, 'file.import', { path });
    await run(engine, 'layer.addFootage', { comp: comp.id, footage: item.id });
  }
  return comp.id;
}

describeWithFfmpeg("the studio's sound mix", () => {
  itWithFfmpeg("leaves out a missing file's sound with a warning naming it; the rest plays", async () => {
    const l = await layout();
    const low = await tone(l.root, { freq: 440, seconds: 2 });
    const high = await tone(l.root, { freq: 1000, seconds: 2 });
    const { engine } = createSession();
    const comp = await compWith(engine, [low, high]);
    await unlink(high);
    const doc = engine.document;
    const plan = planPreviewSound(doc, comp)!;
    const { wav, warnings } = await mixPreviewSound(doc, plan, {
      ports: engine.ports,
      ffmpeg: await findFfmpeg(),
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.code).toBe('no_such_file');
    expect(warnings[0]!.message).toContain('tone-1000-2.wav');
    const file = join(l.root, 'mix.wav');
    await writeFile(file, wav);
    const left = await decodeSound(file);
    expect(left.length).toBe(2 * RATE);
    expect(frequency(left, 0.1, 1.9)).toBeCloseTo(440, 0);
  });

  itWithFfmpeg(
    'refuses a file swapped for a link out of the read roots, and says when ffmpeg is missing',
    async () => {
      const l = await layout();
      const inside = await tone(l.root, { freq: 440, seconds: 2 });
      const secret = await tone(l.outside, { freq: 880, seconds: 2 });
      const { engine } = createSession({
        confinement: createConfinement({ readRoots: [l.ro], writeRoots: [l.root] }),
      });
      const comp = await compWith(engine, [inside]);
      const doc = engine.document;
      const plan = planPreviewSound(doc, comp)!;
      await rename(inside, `${inside}.moved`);
      await symlink(secret, inside);
      await expect(
        mixPreviewSound(doc, plan, { ports: engine.ports, ffmpeg: await findFfmpeg() }),
      ).rejects.toMatchObject({ code: 'path_outside_roots' });
      await expect(mixPreviewSound(doc, plan, { ports: engine.ports, ffmpeg: null })).rejects.toMatchObject({
        code: 'missing_dependency',
      });
    },
  );
});
