/** Large strings put into an HTTP response's bytes in place of their stand-ins, across chunk boundaries. */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import {
  largeString,
  spliceStream,
  takeBytes,
  withLargeValues,
  type SpliceTable,
} from '../../../src/mcp/http-splice.js';

/** Streams `payload` through the splicer in pieces of `size` bytes. */
async function through(table: SpliceTable, payload: string, size: number): Promise<string> {
  const bytes = Buffer.from(payload);
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return text(Readable.from(pieces).pipe(spliceStream(table)));
}

describe('http-splice', () => {
  it('outside a request, a large string is itself', () => {
    expect(largeString('QUJD')).toBe('QUJD');
  });

  it('within a request, the serialised stand-ins become the strings, for any chunking', async () => {
    const table: SpliceTable = new Map();
    const a = 'A'.repeat(5000);
    const b = 'QkJC'.repeat(300);
    const [ida, idb] = await withLargeValues({ out: table, in: new Map() }, async () => [
      largeString(a),
      largeString(b),
    ]);
    expect(ida).not.toBe(a);
    const json = JSON.stringify({ result: { a: ida, b: idb, other: 'ec-splice-not-ours' } });
    const expected = JSON.stringify({ result: { a, b, other: 'ec-splice-not-ours' } });
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
    const table: SpliceTable = new Map([['ec-splice-00000000-0000-0000-0000-000000000000', 'Z']]);
    expect(await through(table, json, 5)).toBe(json);
  });
});
