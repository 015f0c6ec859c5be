/**
 * What an import that ffprobe refuses says. ffprobe's last error line may only name the file with an errno: a
 * Y4M whose header claims 30000x30000 ends "huge.y4m: Device or resource busy", and that was all the message
 * said; the line before it ("Picture size 30000x30000 is invalid") tells why. And a library's context address
 * (`[pcm_s16le @ 0x55e9d798cb80]`), another on each run, is no part of what it said.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

/** A canonical 44-byte WAV header with `channels` and `rate`, then `bytes` of silence. */
function wav(channels: number, rate: number, bytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + bytes, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(bytes, 40);
  return Buffer.concat([h, Buffer.alloc(bytes)]);
}

async function importError(name: string, data: Buffer) {
  const path = join(await tempDir(), name);
  await writeFile(path, data);
  const r = await trackedSession().engine.execute('file.import', { path });
  expect(!r.ok && r.error.code).toBe('unsupported_format');
  return r.ok ? null : r.error;
}

describe('an import ffprobe refuses', () => {
  itWithFfmpeg('says why, not only the errno of the last line', async () => {
    const y4m = Buffer.concat([
      Buffer.from('YUV4MPEG2 W30000 H30000 F25:1 Ip A1:1 C420jpeg\nFRAME\n', 'latin1'),
      Buffer.alloc(1000),
    ]);
    const error = await importError('huge.y4m', y4m);
    expect(error?.message).toContain('Picture size 30000x30000 is invalid');
    expect(error?.message).toContain('huge.y4m: Device or resource busy');
  });

  itWithFfmpeg("leaves out the library's address", async () => {
    const error = await importError('many.wav', wav(1000, 48000, 2000 * 10));
    expect(error?.message).toContain('[pcm_s16le] Too many channels: 1000');
    expect(error?.message).not.toMatch(/@ 0x/);
  });

  itWithFfmpeg('names a project file imported as footage, and project.open as the remedy', async () => {
    const error = await importError(
      'edit.ecproj',
      Buffer.from('{"format":"effectcraft-project","version":1}'),
    );
    expect(error?.message).toContain('is an EffectCraft project file, not footage');
    expect(error?.remediation).toContain('project.open');
  });
});
