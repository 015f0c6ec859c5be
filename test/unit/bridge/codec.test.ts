import { describe, expect, it } from 'vitest';
import {
  decode,
  encode,
  failure,
  notification,
  request,
  rpcError,
  success,
} from '../../../src/bridge/codec.js';
import { RpcCodes } from '../../../src/bridge/protocol.js';

describe('decode', () => {
  it('reads requests, notifications and responses', () => {
    expect(decode(JSON.stringify(request(1, 'engine.list', { filter: 'comp' })))).toEqual({
      ok: true,
      kind: 'request',
      message: { jsonrpc: '2.0', id: 1, method: 'engine.list', params: { filter: 'comp' } },
    });
    const n = decode(JSON.stringify(notification('event.documentChanged', { label: 'x' })));
    expect(n.ok && n.kind).toBe('notification');
    const r = decode(JSON.stringify(success('a', { x: 1 })));
    expect(r).toEqual({ ok: true, kind: 'response', message: { jsonrpc: '2.0', id: 'a', result: { x: 1 } } });
  });

  it('keeps the engine error shape of error responses', () => {
    const info = { code: 'not_found' as const, message: 'no comp', remediation: 'list comps' };
    const d = decode(JSON.stringify(failure(7, rpcError(RpcCodes.applicationError, info))));
    expect(d.ok && d.kind === 'response' && 'error' in d.message && d.message.error.data).toEqual(info);
  });

  it('fills in an error shape when a peer sends a bare JSON-RPC error', () => {
    const d = decode('{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope"}}');
    expect(d.ok && d.kind === 'response' && 'error' in d.message && d.message.error.data.code).toBe(
      'tool_failed',
    );
  });

  it('does not pass on an error code outside the closed list: it becomes tool_failed naming it', () => {
    const frame = JSON.stringify({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32000, message: 'odd', data: { code: 'exploded', message: 'odd', remediation: 'r' } },
    });
    const d = decode(frame);
    const data = d.ok && d.kind === 'response' && 'error' in d.message ? d.message.error.data : null;
    expect(data).toMatchObject({ code: 'tool_failed' });
    expect(data?.message).toContain('exploded');
  });

  it('answers invalid JSON with a parse error and a null id', () => {
    const d = decode('{"jsonrpc":');
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.error.code).toBe(RpcCodes.parseError);
      expect(d.error.data.code).toBe('bad_argument');
      expect(d.id).toBeNull();
    }
  });

  it.each([
    [
      'an array (batches are not supported)',
      '[{"jsonrpc":"2.0","id":1,"method":"x"}]',
      RpcCodes.invalidRequest,
    ],
    ['a missing jsonrpc member', '{"id":1,"method":"x"}', RpcCodes.invalidRequest],
    [
      'params that are a string',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":"s"}',
      RpcCodes.invalidParams,
    ],
    ['an id that is an object', '{"jsonrpc":"2.0","id":{},"method":"x"}', RpcCodes.invalidRequest],
    ['neither method nor result', '{"jsonrpc":"2.0","id":1}', RpcCodes.invalidRequest],
    ['a primitive', '42', RpcCodes.invalidRequest],
  ])('refuses %s', (_name, frame, code) => {
    const d = decode(frame);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error.code).toBe(code);
  });

  it('keeps the id of an invalid request when it can, so the peer can match the error', () => {
    const d = decode('{"jsonrpc":"2.0","id":9,"method":"x","params":5}');
    expect(!d.ok && d.id).toBe(9);
  });

  it('refuses frames over the size bound before parsing them', () => {
    const d = decode(JSON.stringify(request(1, 'x', { blob: 'a'.repeat(200) })), 100);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error.code).toBe(RpcCodes.invalidRequest);
  });

  it('reads Buffers as UTF-8', () => {
    const d = decode(Buffer.from(JSON.stringify(request('é', 'x'))));
    expect(d.ok && d.kind === 'request' && d.message.id).toBe('é');
  });
});

describe('encode', () => {
  it('serialises within the bound', () => {
    const e = encode(request(1, 'engine.execute', { id: 'comp.new' }));
    expect(e.ok && JSON.parse(e.frame)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'engine.execute',
      params: { id: 'comp.new' },
    });
  });

  it('reports a message too large to send instead of sending it', () => {
    const e = encode(request(1, 'x', { blob: 'a'.repeat(500) }), 100);
    expect(e.ok).toBe(false);
    if (!e.ok) expect(e.error.code).toBe('bad_argument');
  });

  it('omits absent params and turns an undefined result into null', () => {
    expect(request(1, 'hello')).toEqual({ jsonrpc: '2.0', id: 1, method: 'hello' });
    expect(success(1, undefined)).toEqual({ jsonrpc: '2.0', id: 1, result: null });
  });
});
