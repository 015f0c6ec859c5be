/**
 * An image whose header claims more pixels than sharp opens (its limit, 268 MP): a 20000x20000 PNG of a few
 * hundred bytes (a decompression bomb, or a real scan). sharp refuses even its header, and the import said it
 * was "not an image EffectCraft can read" with the remedy to import a PNG, which it was; a sequence frame of that
 * size was "not a readable image" instead of a frame of the wrong size. The header is read anyway and the size
 * named, with a remedy that scales it down.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

/** A PNG whose IHDR says `width` x `height` over one row of grey: only its header is ever read. */
function claimedPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('an image past the pixel limit', () => {
  it('is refused at import naming its size and how to scale it down', async () => {
    const dir = await tempDir();
    const path = join(dir, 'bomb.png');
    await writeFile(path, claimedPng(20000, 20000));
    const r = await trackedSession().engine.execute('file.import', { path });
    expect(!r.ok && r.error.code).toBe('unsupported_format');
    if (r.ok) return;
    expect(r.error.message).toContain('"bomb.png" is 20000x20000 (400 megapixels)');
    expect(r.error.remediation).toContain('vipsthumbnail "bomb.png"');
  });

  it('as a frame of a sequence, fails the render as a frame of the wrong size', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'seq'));
    for (const n of [1, 2])
      await sharp({ create: { width: 64, height: 48, channels: 3, background: '#800000' } })
        .png()
        .toFile(join(dir, 'seq', `f_${n}.png`));
    await writeFile(join(dir, 'seq', 'f_2.png'), claimedPng(20000, 20000));
    const s = trackedSession();
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 2 / 30,
    });
    const { id: footage } = await run<{ id: string }>(s, 'file.import', {
      path: join(dir, 'seq', 'f_1.png'),
      sequence: true,
    });
    await run(s, 'layer.addFootage', { comp, footage });
    const r = await s.engine.execute('frame.save', { comp, time: 1 / 30, path: join(dir, 'a.png') });
    expect(!r.ok && r.error.code).toBe('unsupported_format');
    if (r.ok) return;
    expect(r.error.message).toContain('f_2.png" of the image sequence');
    expect(r.error.message).toContain('is 20000x20000');
  });
});
