/**
 * A still of more pixels than MAX_STILL_PIXELS is decoded smaller, keeping its aspect, and drawn at its full
 * size in layer units: a 16000x16000 PNG of 5 MB took a preview to 3.1 GB when decoded whole (0.6 GB now).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../../src/session.js';
import type { Engine, FootageItem } from '../../../src/engine/index.js';
import { decode, MAX_STILL_PIXELS } from '../../../src/render/footage.js';
import { tempDir } from '../../helpers/tmp.js';

async function ok<R>(engine: Engine, id: string, params: unknown): Promise<R> {
  const r = await engine.execute<R>(id, params);
  if (!r.ok) throw new Error(`${id}: ${r.error.code} ${r.error.message}`);
  return r.result;
}

/** A width x height PNG: red left half, blue right half, a green square of side `mark` at its top left. */
async function halves(path: string, width: number, height: number, mark: number): Promise<void> {
  const flat = (w: number, h: number, background: string) =>
    sharp({ create: { width: w, height: h, channels: 3, background } })
      .png()
      .toBuffer();
  await sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
    .composite([
      { input: await flat(width / 2, height, '#0000ff'), left: width / 2, top: 0 },
      { input: await flat(mark, mark, '#00ff00'), left: 0, top: 0 },
    ])
    .png({ compressionLevel: 1 })
    .toFile(path);
}

function pixel(raw: Buffer, width: number, x: number, y: number): number[] {
  const at = (y * width + x) * 3;
  return [...raw.subarray(at, at + 3)];
}

describe('a still larger than the decode limit', () => {
  it('is decoded with at most MAX_STILL_PIXELS, its aspect kept; a still within the limit keeps its size', async () => {
    const dir = await tempDir();
    const big = join(dir, 'big.png');
    await halves(big, 9000, 4000, 1000);
    const item = { id: 'f1', name: 'big.png', path: big, width: 9000, height: 4000 } as FootageItem;
    const canvas = await decode(item, await readFile(big));
    expect(canvas.width * canvas.height).toBeLessThanOrEqual(MAX_STILL_PIXELS);
    expect(canvas.width * canvas.height).toBeGreaterThan(MAX_STILL_PIXELS * 0.99);
    expect(canvas.width / canvas.height).toBeCloseTo(9000 / 4000, 2);

    const small = join(dir, 'small.png');
    await halves(small, 400, 200, 50);
    const kept = await decode({ ...item, path: small, width: 400, height: 200 }, await readFile(small));
    expect([kept.width, kept.height]).toEqual([400, 200]);
  });

  it('is drawn at its full size in layer units: its halves and its corner mark where they belong', async () => {
    const dir = await tempDir();
    const big = join(dir, 'big.png');
    await halves(big, 9000, 4000, 1000);
    const { engine } = createSession();
    await ok(engine, 'comp.new', { name: 'Main', width: 900, height: 400, frameRate: 25, duration: 1 });
    const footage = await ok<{ id: string; width: number; height: number }>(engine, 'file.import', {
      path: big,
    });
    expect([footage.width, footage.height]).toEqual([9000, 4000]);
    await ok(engine, 'layer.addFootage', { footage: footage.id, name: 'Big' });
    await ok(engine, 'property.set', { layer: 'Big', property: 'transform.scale', value: [10, 10] });
    const out = join(dir, 'frame.png');
    const saved = await ok<{ warnings?: string[] }>(engine, 'frame.save', { path: out });
    expect(saved.warnings ?? []).toEqual([]);
    const { data, info } = await sharp(out).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([900, 400]);
    // The 1000 px mark is 100 px on screen; the halves meet at x = 450.
    expect(pixel(data, 900, 50, 50)).toEqual([0, 255, 0]);
    expect(pixel(data, 900, 150, 150)).toEqual([255, 0, 0]);
    expect(pixel(data, 900, 440, 300)).toEqual([255, 0, 0]);
    expect(pixel(data, 900, 460, 300)).toEqual([0, 0, 255]);
    expect(pixel(data, 900, 890, 10)).toEqual([0, 0, 255]);
  });
});
