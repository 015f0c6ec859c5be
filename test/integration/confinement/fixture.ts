/** Real directories for confinement tests: a write root, a read root, an outside dir, small PNGs. */
import { mkdir } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { tempDir } from '../../helpers/tmp.js';

export interface Layout {
  dir: string;
  /** Write root. */
  root: string;
  /** Read-only root. */
  ro: string;
  outside: string;
}

export async function png(path: string, color = { r: 255, g: 0, b: 0 }): Promise<void> {
  await sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
    .png()
    .toFile(path);
}

export async function layout(): Promise<Layout> {
  const dir = realpathSync.native(await tempDir('ec-confine-'));
  const l = { dir, root: join(dir, 'root'), ro: join(dir, 'ro'), outside: join(dir, 'outside') };
  for (const d of [l.root, l.ro, l.outside]) await mkdir(d);
  await png(join(l.outside, 'secret.png'), { r: 0, g: 0, b: 255 });
  await png(join(l.root, 'in.png'));
  return l;
}
