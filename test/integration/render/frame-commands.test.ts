/** frame.preview and frame.save through a real session (engine + lazy renderer + node ports). */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../../src/session.js';
import type { Engine } from '../../../src/engine/index.js';
import { tempDir } from '../../helpers/tmp.js';
import { makeChecker } from './make-assets.js';

interface Preview {
  png: string;
  comp: { id: string; name: string };
  time: number;
  frame: number;
  sourceSize: { width: number; height: number };
  size: { width: number; height: number };
  bytes: number;
  sha256: string;
  warnings: string[];
}

async function ok<R>(engine: Engine, id: string, params: unknown): Promise<R> {
  const r = await engine.execute<R>(id, params);
  if (!r.ok) throw new Error(`${id}: ${r.error.code} ${r.error.message}`);
  return r.result;
}

async function code(engine: Engine, id: string, params: unknown): Promise<string> {
  const r = await engine.execute(id, params);
  if (r.ok) throw new Error(`${id} unexpectedly succeeded`);
  return r.error.code;
}

/** The compression class (FLEVEL, 0-3) the zlib stream of a PNG's first IDAT chunk states. */
function zlibLevelClass(png: Buffer): number {
  for (let at = 8; at + 8 <= png.length; at += 12 + png.readUInt32BE(at)) {
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') return png[at + 9]! >> 6;
  }
  throw new Error('no IDAT chunk');
}

async function withComp() {
  const { engine } = createSession();
  await ok(engine, 'comp.new', {
    name: 'Wide',
    width: 1920,
    height: 1080,
    duration: 2,
    frameRate: 25,
    backgroundColor: '#112233',
  });
  await ok(engine, 'layer.addText', { text: 'Hello', fontSize: 120 });
  return engine;
}

describe('frame.preview', () => {
  it('returns a PNG scaled to max_side with frame information', async () => {
    const engine = await withComp();
    const p = await ok<Preview>(engine, 'frame.preview', { time: 1.02 });
    const png = Buffer.from(p.png, 'base64');
    expect(p.comp.name).toBe('Wide');
    expect(p.time).toBe(1.02);
    expect(p.frame).toBe(25);
    expect(p.sourceSize).toEqual({ width: 1920, height: 1080 });
    expect(p.size).toEqual({ width: 768, height: 432 });
    expect(p.bytes).toBe(png.length);
    expect(p.sha256).toBe(createHash('sha256').update(png).digest('hex'));
    expect(p.warnings).toEqual([]);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 768, 432]);
    const small = await ok<Preview>(engine, 'frame.preview', { max_side: 100 });
    expect(small.size).toEqual({ width: 100, height: 56 });
  });

  it('compresses a large preview for speed and a small one for size (the zlib level its PNG states)', async () => {
    const engine = await withComp();
    const large = await ok<Preview>(engine, 'frame.preview', { max_side: 1920 });
    const small = await ok<Preview>(engine, 'frame.preview', {});
    expect(large.size).toEqual({ width: 1920, height: 1080 });
    // FLEVEL, in the zlib header that opens the first IDAT: 1 for levels 2-5, 2 for level 6.
    expect(zlibLevelClass(Buffer.from(large.png, 'base64'))).toBe(1);
    expect(zlibLevelClass(Buffer.from(small.png, 'base64'))).toBe(2);
  });

  it('never enlarges, and flattens unless transparent', async () => {
    const { engine } = createSession();
    await ok(engine, 'comp.new', { width: 64, height: 32, backgroundColor: '#ff0000' });
    const flat = await ok<Preview>(engine, 'frame.preview', {});
    expect(flat.size).toEqual({ width: 64, height: 32 });
    const a = await sharp(Buffer.from(flat.png, 'base64')).ensureAlpha().raw().toBuffer();
    expect([...a.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    const clear = await ok<Preview>(engine, 'frame.preview', { transparent: true });
    const b = await sharp(Buffer.from(clear.png, 'base64')).ensureAlpha().raw().toBuffer();
    expect(b[3]).toBe(0);
  });

  it('rejects a max_side over 2048 and a time outside the composition', async () => {
    const engine = await withComp();
    expect(await code(engine, 'frame.preview', { max_side: 4096 })).toBe('bad_argument');
    expect(await code(engine, 'frame.preview', { time: 2 })).toBe('bad_argument');
    expect(await code(engine, 'frame.preview', { time: -1 })).toBe('bad_argument');
    expect(await code(engine, 'frame.preview', { comp: 'Nope' })).toBe('not_found');
    // A whole number within the frame count (50 frames) was most likely a frame: the remedy says so.
    const frame = await engine.execute('frame.preview', { time: 40 });
    expect(frame.ok ? '' : frame.error.remediation).toBe(
      'Pass a time from 0 to less than 2. Times are seconds, not frames: frame 40 at 25 fps is 1.6 s.',
    );
    const late = await engine.execute('frame.preview', { time: 2.5 });
    expect(late.ok ? '' : late.error.remediation).toBe('Pass a time from 0 to less than 2.');
  });

  it('shows a placeholder and a warning for missing footage', async () => {
    const dir = await tempDir();
    const path = join(dir, 'pic.png');
    await makeChecker(path);
    const { engine } = createSession();
    await ok(engine, 'comp.new', { width: 320, height: 240 });
    const f = await ok<{ id: string }>(engine, 'file.import', { path, name: 'Pic' });
    await ok(engine, 'layer.addFootage', { footage: f.id });
    await rm(path);
    const p = await ok<Preview>(engine, 'frame.preview', {});
    expect(p.warnings.join(' ')).toContain(path);
    expect(await code(engine, 'frame.save', { path: join(dir, 'out.png') })).toBe('no_such_file');
  });
});

describe('frame.save', () => {
  it('writes png, jpeg and webp at full size, atomically (no temporaries left)', async () => {
    const engine = await withComp();
    const dir = await tempDir();
    for (const [file, format] of [
      ['a.png', 'png'],
      ['b.jpg', 'jpeg'],
      ['c.webp', 'webp'],
      ['d.img', 'png'],
    ] as const) {
      const path = join(dir, file);
      const params = file.endsWith('.img') ? { path, format, time: 0.5 } : { path, time: 0.5 };
      const r = await ok<{ path: string; width: number; height: number; bytes: number; sha256: string }>(
        engine,
        'frame.save',
        params,
      );
      const data = await readFile(path);
      expect(r).toEqual({
        path,
        width: 1920,
        height: 1080,
        bytes: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
      });
      const meta = await sharp(data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 1920, 1080]);
    }
    expect((await readdir(dir)).sort()).toEqual(['a.png', 'b.jpg', 'c.webp', 'd.img']);
  });

  it('says what a setting its format cannot use did not do: quality of a PNG, transparency of a JPEG', async () => {
    const engine = await withComp();
    const preview = await ok<Preview>(engine, 'frame.preview', { quality: 40, max_side: 64 });
    expect(preview.warnings).toEqual([
      'PNG is lossless: quality 40 changes nothing. Pass format "jpeg" or "webp" to use it.',
    ]);
    const flat = await ok<Preview>(engine, 'frame.preview', {
      format: 'jpeg',
      transparent: true,
      max_side: 64,
    });
    expect(flat.warnings).toEqual([
      "JPEG has no alpha: the frame is flattened on the composition's background colour. Use a PNG or WebP for a transparent background.",
    ]);
    // Settings the format takes draw no warning.
    const fine = await ok<Preview>(engine, 'frame.preview', {
      format: 'webp',
      quality: 40,
      transparent: true,
    });
    expect(fine.warnings).toEqual([]);
    const path = join(await tempDir(), 'flat.jpg');
    const saved = await engine.execute('frame.save', { path, transparent: true });
    expect(saved.ok && saved.warnings).toEqual([expect.stringMatching(/^JPEG has no alpha/)]);
  });

  it('refuses an unknown extension without a format', async () => {
    const engine = await withComp();
    const dir = await tempDir();
    expect(await code(engine, 'frame.save', { path: join(dir, 'x.tiff') })).toBe('unsupported_format');
    expect(await code(engine, 'frame.save', { path: 'relative.png' })).toBe('bad_argument');
  });

  it('refuses to write over footage its composition draws, as a render does, through a linked folder too', async () => {
    // A logo saved as a still of the composition that shows it was replaced by that frame (and the next still
    // drew the frame inside itself); frame.preview's output the same.
    const dir = await tempDir();
    const media = join(dir, 'media');
    await mkdir(media);
    const logo = join(media, 'logo.png');
    await makeChecker(logo);
    const before = await readFile(logo);
    await symlink(media, join(dir, 'linked'));
    const { engine } = createSession();
    await ok(engine, 'comp.new', { name: 'Inner', width: 64, height: 48 });
    const f = await ok<{ id: string }>(engine, 'file.import', { path: logo, name: 'Logo' });
    await ok(engine, 'layer.addFootage', { footage: f.id });
    const main = await ok<{ id: string }>(engine, 'comp.new', { name: 'Main', width: 64, height: 48 });
    await ok(engine, 'layer.addPrecomp', { source: 'Inner' });
    for (const path of [logo, join(dir, 'linked', 'logo.png')]) {
      expect(await code(engine, 'frame.save', { comp: main.id, path })).toBe('bad_argument');
      expect(await code(engine, 'frame.preview', { comp: main.id, output: path })).toBe('bad_argument');
    }
    expect(await readFile(logo)).toEqual(before);
    expect(await readdir(media)).toEqual(['logo.png']);
    // Beside it, the frame is written.
    await ok(engine, 'frame.save', { comp: main.id, path: join(media, 'frame.png') });
    expect((await readdir(media)).sort()).toEqual(['frame.png', 'logo.png']);
  });
});
