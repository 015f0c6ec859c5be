/** Upload bodies parsed with their bytes cut out: the same value as JSON.parse, or the plain path. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../../src/mcp/json-body.js';

const big = randomBytes(900 * 1024).toString('base64'); // over the 1 MiB fast-path threshold as JSON
const body = (value: unknown) => Buffer.from(JSON.stringify(value));
const chunkCall = (args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'put_sample_chunk', arguments: args, _meta: { note: 'ünïcødé' } },
});

describe('parseJsonBody', () => {
  it('gives what JSON.parse gives for an upload chunk, UTF-8 elsewhere in the body included', () => {
    const value = chunkCall({ upload_id: 'u1', seq: 3, content_b64: big });
    expect(parseJsonBody(body(value))).toEqual(value);
  });

  it('puts the bytes back where they were when the key text also stands inside another string', () => {
    // The key's text inside a string value is escaped in JSON ("\"content_b64\":\""), so it is not a match,
    // but a value that merely names the key must come through untouched too.
    const value = chunkCall({ upload_id: '"content_b64":"', seq: 0, content_b64: big });
    expect(parseJsonBody(body(value))).toEqual(value);
  });

  it('falls back to parsing the whole body for other shapes, with the same result', () => {
    const nested = { jsonrpc: '2.0', id: 1, method: 'x', params: { other: { content_b64: big } } };
    expect(parseJsonBody(body(nested))).toEqual(nested);
    const twice = [chunkCall({ content_b64: big }), chunkCall({ content_b64: 'QUJD' })];
    expect(parseJsonBody(body(twice))).toEqual(twice);
    // An escaped slash is valid JSON for "/": the cut would keep the backslash, so the body is parsed whole.
    const escaped = Buffer.from(JSON.stringify(chunkCall({ content_b64: big })).replace('/', '\\/'));
    expect(parseJsonBody(escaped)).toEqual(JSON.parse(escaped.toString()));
  });

  it('refuses what is not JSON, as JSON.parse does', () => {
    const broken = Buffer.from(JSON.stringify(chunkCall({ content_b64: big })).slice(0, -1));
    expect(() => parseJsonBody(broken)).toThrow(SyntaxError);
    expect(() => parseJsonBody(Buffer.from('{"a":'))).toThrow(SyntaxError);
  });
});
