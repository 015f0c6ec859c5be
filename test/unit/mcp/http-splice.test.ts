/** Large values' base64 put into an HTTP response's bytes in place of their stand-ins, across chunk boundaries. */
import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { largeBase64, takeBytes, withLargeValues, type SpliceTable } from '../../../src/mcp/http-splice.js';
import { writeSpliced } from '../../../src/mcp/splice-writer.js';

/** Streams `payload` through the splicing writer in pieces of `size` bytes. */
async function through(table: SpliceTable, payload: string, size: number): Promise<string> {
  const bytes = Buffer.from(payload);
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  // A small buffer, so the writer meets backpressure.
  const sink = new PassThrough({ highWaterMark: 1024 });
  const [out] = await Promise.all([text(sink), writeSpliced(pieces, table, sink)]);
  return out;
}

describe('http-splice', () => {
  it('outside a request, a large value is its base64', () => {
    expect(largeBase64(Buffer.from('ABC'))).toBe('QUJD');
  });

  it('within a request, the serialised stand-ins become the base64, for any chunking', async () => {
    const table: SpliceTable = new Map();
    // Longer than one encoding slice and not a multiple of 3: the slices' base64 must join into the whole's.
    const a = Buffer.from(Array.from({ length: 150_001 }, (_, i) => (i * 7919) % 256));
    const b = Buffer.from('BBB'.repeat(300));
    const [ida, idb] = await withLargeValues({ out: table, in: new Map() }, async () => [
      largeBase64(a),
      largeBase64(b),
    ]);
    expect(ida).not.toBe(a.toString('base64'));
    const json = JSON.stringify({ result: { a: ida, b: idb, other: 'ec-splice-not-ours' } });
    const expected = JSON.stringify({
      result: { a: a.toString('base64'), b: b.toString('base64'), other: 'ec-splice-not-ours' },
    });
    for (const size of [1, 7, 45, 46, 47, 4096, json.length]) {
      const t = new Map(table);
      expect(await through(t, `data: ${json}\n\n`, size)).toBe(`data: ${expected}\n\n`);
      expect(t.size).toBe(0);
    }
  });

  it('hands a tool the bytes its request body carried for a stand-in, once, and nothing outside a request', async () => {
    const bytes = Buffer.from('some bytes');
    const values = { out: new Map(), in: new Map([['ec-splice-x', bytes]]) };
    expect(takeBytes('ec-splice-x')).toBeUndefined();
    await withLargeValues(values, async () => {
      expect(takeBytes('ec-splice-y')).toBeUndefined();
      expect(takeBytes('ec-splice-x')).toBe(bytes);
      expect(takeBytes('ec-splice-x')).toBeUndefined();
    });
  });

  it('passes a stream through untouched when nothing was set aside', async () => {
    const json = JSON.stringify({ text: 'ec-splice-' + 'x'.repeat(60), end: 'ec-spli' });
    expect(await through(new Map(), json, 5)).toBe(json);
    const table: SpliceTable = new Map([
      ['ec-splice-00000000-0000-0000-0000-000000000000', { bytes: Buffer.from('Z') }],
    ]);
    expect(await through(table, json, 5)).toBe(json);
  });

  it('releases each value once: after its bytes are written, when never reached, and when the client goes away', async () => {
    const released: string[] = [];
    const table: SpliceTable = new Map();
    const bytes = Buffer.alloc(500_000, 7);
    const [used] = await withLargeValues({ out: table, in: new Map() }, async () => [
      largeBase64(bytes, () => released.push('used')),
      largeBase64(bytes, () => released.push('unused')),
    ]);
    const json = JSON.stringify({ a: used });
    expect(await through(table, json, 64)).toBe(JSON.stringify({ a: bytes.toString('base64') }));
    expect(released.sort()).toEqual(['unused', 'used']);
    expect(table.size).toBe(0);

    // A sink destroyed while the base64 travels: the writer fails and still releases, once.
    released.length = 0;
    const [gone] = await withLargeValues({ out: table, in: new Map() }, async () => [
      largeBase64(bytes, () => released.push('gone')),
    ]);
    const sink = new PassThrough({ highWaterMark: 1024 });
    let read = 0;
    sink.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > 100_000) sink.destroy();
    });
    await expect(writeSpliced([Buffer.from(JSON.stringify({ a: gone }))], table, sink)).rejects.toThrow();
    expect(released).toEqual(['gone']);
  });

  it('outside a request, releases at once', () => {
    let released = 0;
    expect(largeBase64(Buffer.from('ABC'), () => released++)).toBe('QUJD');
    expect(released).toBe(1);
  });
});
