/** Writes fixtures/golden/assets/checker.png: a deterministic 160x120 RGBA image (checker + alpha ramp). */
import sharp from 'sharp';

export async function makeChecker(path: string): Promise<void> {
  const w = 160;
  const h = 120;
  const px = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const on = ((x >> 4) + (y >> 4)) % 2 === 0;
      px[i] = on ? 250 : 30;
      px[i + 1] = on ? 200 : 90;
      px[i + 2] = on ? 40 : 200;
      // Alpha ramps from opaque on the left to 25% on the right: exercises straight-alpha decoding.
      px[i + 3] = Math.round(255 - (x / (w - 1)) * 191);
    }
  await sharp(px, { raw: { width: w, height: h, channels: 4 } })
    .png()
    .toFile(path);
}
