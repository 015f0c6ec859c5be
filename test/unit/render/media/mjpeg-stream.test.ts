import { describe, expect, it } from 'vitest';
import { MjpegSplitter } from '../../../../src/render/media/mjpeg-stream.js';

/** ffmpeg's -f mpjpeg framing of `images`. */
function multipart(images: Buffer[]): Buffer {
  return Buffer.concat(
    images.flatMap((img) => [
      Buffer.from(`--ffmpeg\r\nContent-type: image/jpeg\r\nContent-length: ${img.length}\r\n\r\n`),
      img,
      Buffer.from('\r\n'),
    ]),
  );
}

/** Images whose bytes include CRLF pairs and JPEG markers, which only the length header can frame. */
const images = [
  Buffer.from([0xff, 0xd8, 0x0d, 0x0a, 0x0d, 0x0a, 0xff, 0xd9, 0x00, 0xff, 0xd9]),
  Buffer.alloc(5000, 0x2d),
  Buffer.from('--ffmpeg\r\nContent-length: 3\r\n\r\n'),
];

function split(stream: Buffer, sizes: (i: number) => number): { out: Buffer[]; broken: boolean } {
  const splitter = new MjpegSplitter();
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < stream.length; i++) {
    const n = Math.max(1, sizes(i));
    splitter.push(stream.subarray(at, at + n), (img) => out.push(img));
    at += n;
  }
  return { out, broken: splitter.broken };
}

describe('MjpegSplitter', () => {
  it.each([
    ['in one chunk', () => 1 << 20],
    ['a byte at a time', () => 1],
    ['in uneven chunks', (i: number) => [7, 1, 300, 2, 4096][i % 5]!],
  ])('gives back every image exactly, fed %s', (_, sizes) => {
    const { out, broken } = split(multipart(images), sizes);
    expect(broken).toBe(false);
    expect(out).toEqual(images);
  });

  it('gives each image a buffer of its own (not a view of a chunk that is reused)', () => {
    const stream = multipart(images);
    const splitter = new MjpegSplitter();
    const out: Buffer[] = [];
    splitter.push(stream, (img) => out.push(img));
    stream.fill(0);
    expect(out).toEqual(images);
  });

  it('stops at headers without a length, and at a header that never ends', () => {
    const noLength = split(Buffer.from('--ffmpeg\r\nContent-type: image/jpeg\r\n\r\nabc'), () => 4);
    expect(noLength).toEqual({ out: [], broken: true });
    const endless = split(Buffer.alloc(4096, 0x41), () => 100);
    expect(endless).toEqual({ out: [], broken: true });
  });
});
