/**
 * An image sequence with a frame of another size than its first (so from the start: the import reads the first
 * frame's header only). The render's error says what is true, the frame differs from the sequence's size, not that
 * the sequence changed since its import; and footage.relink to the first frame, the remedy a user reaches for,
 * keeps the item a sequence instead of quietly making it a still of that frame.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { disposeAll, savedCentre, trackedSession } from '../../helpers/footage-session.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

/** Red level of frame n (1-4): a frame's centre names it. */
const red = (n: number) => n * 60;

/** g_1.png ... g_4.png, 64x48 but g_3.png, 80x48; returns the first. */
async function mixedSequence(dir: string): Promise<string> {
  await mkdir(join(dir, 'seq'));
  for (const n of [1, 2, 3, 4])
    await sharp({
      create: { width: n === 3 ? 80 : 64, height: 48, channels: 3, background: { r: red(n), g: 0, b: 0 } },
    })
      .png()
      .toFile(join(dir, 'seq', `g_${n}.png`));
  return join(dir, 'seq', 'g_1.png');
}

async function sequenceShown(dir: string) {
  const first = await mixedSequence(dir);
  const s = trackedSession();
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: 64,
    height: 48,
    frameRate: 30,
    duration: 4 / 30,
  });
  const { id: footage } = await run<{ id: string }>(s, 'file.import', {
    path: first,
    sequence: true,
    name: 'Seq',
  });
  await run(s, 'layer.addFootage', { comp, footage });
  return { s, comp, footage, first };
}

describe('an image sequence with a frame of another size', () => {
  it('fails that frame saying it differs from the first frame, with a remedy that fits', async () => {
    const dir = await tempDir();
    const { s, comp } = await sequenceShown(dir);
    const r = await s.engine.execute('frame.save', { comp, time: 2 / 30, path: join(dir, 'a.png') });
    expect(!r.ok && r.error.code).toBe('unsupported_format');
    if (r.ok) return;
    expect(r.error.message).toContain(
      'is 80x48, but the sequence is 64x48 (the size of its first frame, g_1.png, when it was imported)',
    );
    expect(r.error.message).not.toMatch(/changed since/);
    expect(r.error.remediation).toMatch(/^Re-export g_3\.png at 64x48\./);
  });

  it('footage.relink to the first frame keeps it a sequence, and its frames play', async () => {
    const dir = await tempDir();
    const { s, comp, footage, first } = await sequenceShown(dir);
    const r = await s.engine.execute<FootageItem>('footage.relink', { footage, path: first });
    expect(r.ok && r.result.media).toMatchObject({ kind: 'sequence', frameCount: 4 });
    expect(r.ok && r.warnings).toBeFalsy();
    const [r1] = await savedCentre(s, comp, 1 / 30, dir);
    expect(Math.abs(r1 - red(2))).toBeLessThan(3);
  });

  it('footage.relink with sequence: false makes it that one still, and warns', async () => {
    const dir = await tempDir();
    const { s, footage, first } = await sequenceShown(dir);
    const r = await s.engine.execute<FootageItem>('footage.relink', {
      footage,
      path: first,
      sequence: false,
    });
    expect(r.ok && r.result.media).toMatchObject({ kind: 'still', sequence: null });
    expect(r.ok && r.warnings).toEqual([
      '"Seq" was an image sequence of 4 frames; it is now one file, g_1.png (still). Relink it without sequence: false to read the run of numbered files that starts there.',
    ]);
  });
});
