/**
 * Golden-frame comparison. Tolerance: a pixel matches when every channel (straight RGBA) differs by at
 * most 2; a frame matches when at least 99.9% of its pixels match and the sizes are equal. On failure a
 * diff image (red where pixels differ, the reference dimmed elsewhere) goes to test-output/golden/.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

export const CHANNEL_TOLERANCE = 2;
export const MIN_MATCHING = 0.999;
export const outputDir = fileURLToPath(new URL('../../../test-output/golden/', import.meta.url));

export interface Comparison {
  ok: boolean;
  matching: number;
  maxDiff: number;
  detail: string;
}

async function rgba(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Compares two PNGs; writes `<name>.actual.png` and `<name>.diff.png` to test-output/golden on failure. */
export async function compareGolden(
  name: string,
  actualPng: Buffer,
  referencePng: Buffer,
): Promise<Comparison> {
  const a = await rgba(actualPng);
  const r = await rgba(referencePng);
  if (a.width !== r.width || a.height !== r.height) {
    await writeFailure(name, actualPng, null);
    return {
      ok: false,
      matching: 0,
      maxDiff: 255,
      detail: `size ${a.width}x${a.height} != reference ${r.width}x${r.height}`,
    };
  }
  const diff = Buffer.alloc(a.data.length);
  let good = 0;
  let maxDiff = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a.data[i + c]! - r.data[i + c]!));
    maxDiff = Math.max(maxDiff, d);
    if (d <= CHANNEL_TOLERANCE) {
      good++;
      diff[i] = diff[i + 1] = diff[i + 2] = r.data[i]! >> 2;
    } else {
      diff[i] = 255;
    }
    diff[i + 3] = 255;
  }
  const matching = good / (a.width * a.height);
  const ok = matching >= MIN_MATCHING;
  if (!ok) {
    const diffPng = await sharp(diff, { raw: { width: a.width, height: a.height, channels: 4 } })
      .png()
      .toBuffer();
    await writeFailure(name, actualPng, diffPng);
  }
  return {
    ok,
    matching,
    maxDiff,
    detail: `${(matching * 100).toFixed(3)}% of pixels within ${CHANNEL_TOLERANCE}, max diff ${maxDiff}`,
  };
}

async function writeFailure(name: string, actual: Buffer, diff: Buffer | null): Promise<void> {
  await mkdir(outputDir, { recursive: true });
  await writeFile(join(outputDir, `${name}.actual.png`), actual);
  if (diff) await writeFile(join(outputDir, `${name}.diff.png`), diff);
}
