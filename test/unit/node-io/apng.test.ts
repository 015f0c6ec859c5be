/** An APNG's frame count from its acTL chunk, read before the image data; nothing from a still or a non-PNG. */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { apngFrames } from '../../../src/node-io/apng.js';

/** A PNG chunk (the CRC is not checked by the reader, so zeros do). */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, data, Buffer.alloc(4)]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IHDR = chunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]));
const IDAT = chunk('IDAT', deflateSync(Buffer.from([0, 0, 0, 0])));
const IEND = chunk('IEND', Buffer.alloc(0));
const acTL = (frames: number) => {
  const data = Buffer.alloc(8);
  data.writeUInt32BE(frames, 0);
  return chunk('acTL', data);
};

describe('apngFrames', () => {
  it('reads the frame count of acTL before IDAT', () => {
    expect(apngFrames(Buffer.concat([SIGNATURE, IHDR, acTL(12), IDAT, IEND]))).toBe(12);
  });

  it('is null for a still PNG, an acTL after the image data, and bytes that are not a PNG', () => {
    expect(apngFrames(Buffer.concat([SIGNATURE, IHDR, IDAT, IEND]))).toBeNull();
    expect(apngFrames(Buffer.concat([SIGNATURE, IHDR, IDAT, acTL(12), IEND]))).toBeNull();
    expect(apngFrames(Buffer.from('GIF89a not a png'))).toBeNull();
  });

  it('stops at a truncated chunk instead of reading past the end', () => {
    expect(apngFrames(Buffer.concat([SIGNATURE, IHDR, acTL(3).subarray(0, 10)]))).toBeNull();
  });
});
