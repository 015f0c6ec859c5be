/** Upload bodies parsed with their bytes cut out: the value JSON.parse gives, the bytes decoded beside it. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../../src/mcp/json-body.js';

const data = randomBytes(900 * 1024);
const big = data.toString('base64'); // over the 1 MiB fast-path threshold as JSON
const body = (value: unknown) => Buffer.from(JSON.stringify(value));
const chunkCall = (args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'put_sample_chunk', arguments: args, _meta: { note: 'ünïcødé' } },
});
type Call = ReturnType<typeof chunkCall>;

/** Parses `raw`; the upload's stand-in is put back as the base64 of its bytes, to compare with JSON.parse. */
function parsedWithBytes(raw: Buffer): { value: unknown; decoded: number } {
  const bytes = new Map<string, Buffer>();
  const value = parseJsonBody(raw, bytes) as Call;
  const args = value?.params?.arguments;
  const cut = typeof args?.content_b64 === 'string' ? bytes.get(args.content_b64) : undefined;
  if (cut) args.content_b64 = cut.toString('base64');
  return { value, decoded: bytes.size };
}

describe('parseJsonBody', () => {
  it('decodes an upload chunk from the body: the arguments hold a stand-in for exactly its bytes', () => {
    const value = chunkCall({ upload_id: 'u1', seq: 3, content_b64: big });
    const bytes = new Map<string, Buffer>();
    const parsed = parseJsonBody(body(value), bytes) as Call;
    const standIn = parsed.params.arguments.content_b64 as string;
    expect(standIn.length).toBeLessThan(100);
    expect(bytes.get(standIn)?.equals(data)).toBe(true);
    expect({
      ...parsed,
      params: { ...parsed.params, arguments: { ...parsed.params.arguments, content_b64: big } },
    }).toEqual(value);
  });

  it('keeps the bytes where they were when the key text also stands inside another string', () => {
    const value = chunkCall({ upload_id: '"content_b64":"', seq: 0, content_b64: big });
    expect(parsedWithBytes(body(value)).value).toEqual(value);
  });

  it('leaves text that is not base64 as text, for the tool to refuse', () => {
    for (const bad of [`${big}A`, `${big.slice(0, -4)}@@@@`, `${big.slice(0, 40)}==${big.slice(42)}`]) {
      const value = chunkCall({ upload_id: 'u1', seq: 0, content_b64: bad });
      const r = parsedWithBytes(body(value));
      expect(r.decoded).toBe(0);
      expect(r.value).toEqual(value);
    }
  });

  it('falls back to parsing the whole body for other shapes, with the same result', () => {
    const nested = { jsonrpc: '2.0', id: 1, method: 'x', params: { other: { content_b64: big } } };
    expect(parsedWithBytes(body(nested))).toEqual({ value: nested, decoded: 0 });
    const twice = [chunkCall({ content_b64: big }), chunkCall({ content_b64: 'QUJD' })];
    expect(parsedWithBytes(body(twice))).toEqual({ value: twice, decoded: 0 });
    // An escaped slash is valid JSON for "/": the cut would keep the backslash, so the body is parsed whole.
    const escaped = Buffer.from(
      JSON.stringify(chunkCall({ content_b64: big })).replace(big, big.replace('/', '\\/')),
    );
    expect(parsedWithBytes(escaped)).toEqual({ value: JSON.parse(escaped.toString()), decoded: 0 });
  });

  it('refuses what is not JSON, as JSON.parse does', () => {
    const broken = Buffer.from(JSON.stringify(chunkCall({ content_b64: big })).slice(0, -1));
    expect(() => parseJsonBody(broken, new Map())).toThrow(SyntaxError);
    expect(() => parseJsonBody(Buffer.from('{"a":'), new Map())).toThrow(SyntaxError);
  });
});
