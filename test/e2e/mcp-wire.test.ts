/**
 * The stdio wire of `effectcraft-cli mcp`, byte for byte: malformed lines, non-JSON-RPC values, the protocol
 * version checked on every request, unknown argument keys, and replies written after stdin closes.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { RawServer, envelope, MODERN, renderSetup } from './mcp-helpers.js';

describe('mcp stdio wire', () => {
  it('answers an unparseable line with -32700 and a null id, then keeps serving', async () => {
    const s = new RawServer();
    s.sendLine('{"jsonrpc": "2.0", "id": 1, "method": ');
    const parseError = await s.waitFor((m) => m.error?.code === -32700);
    expect(parseError.id).toBeNull();
    await s.initialize();
    const pong = await s.request(2, 'ping');
    expect(pong.result).toEqual({});
  });

  it('answers JSON that is not JSON-RPC with -32600', async () => {
    const s = new RawServer();
    s.sendLine('{"hello": "world"}');
    s.sendLine('[1, 2, 3]');
    s.sendLine('{"jsonrpc": "2.0", "id": 7, "method": 42}');
    await s.waitFor((m) => m.id === 7 && m.error?.code === -32600);
    const invalid = s.messages.filter((m) => m.error?.code === -32600);
    expect(invalid.map((m) => m.id)).toEqual([null, null, 7]);
    await s.initialize();
    expect((await s.request(8, 'ping')).result).toEqual({});
  });

  it('checks the claimed protocol version on every request, not only the first (-32022)', async () => {
    const s = new RawServer();
    const discover = await s.request(1, 'server/discover', { _meta: envelope() });
    expect(discover.result?.resultType).toBe('complete');
    const ok = await s.request(2, 'tools/list', { _meta: envelope() });
    expect(Array.isArray(ok.result?.tools)).toBe(true);
    const bad = await s.request(3, 'tools/list', {
      _meta: envelope({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
    });
    expect(bad.error?.code).toBe(-32022);
    // Every revision it serves: the legacy one through initialize too, so a 2025-11-25 client knows to stay.
    expect(bad.error?.data).toMatchObject({ supported: [MODERN, '2025-11-25'], requested: '2099-01-01' });
    // and the session still serves
    expect((await s.request(4, 'tools/list', { _meta: envelope() })).result?.tools).toBeDefined();
  });

  it('refuses a 2026-07-28 request without client capabilities in its envelope (-32602), as the spec says', async () => {
    const s = new RawServer();
    const { 'io.modelcontextprotocol/clientCapabilities': _, ...noCapabilities } = envelope();
    const missing = await s.request(1, 'tools/call', {
      name: 'doc_inspect',
      arguments: {},
      _meta: noCapabilities,
    });
    expect(missing.error?.code).toBe(-32602);
    expect(missing.error?.message).toContain('io.modelcontextprotocol/clientCapabilities');
    const wrongType = await s.request(2, 'tools/list', {
      _meta: envelope({ 'io.modelcontextprotocol/clientCapabilities': 'x' }),
    });
    expect(wrongType.error?.code).toBe(-32602);
    // A whole envelope is served as before.
    expect((await s.request(3, 'tools/list', { _meta: envelope() })).result?.tools).toBeDefined();
  });

  it('gives 2026-07-28 clients resultType and cache hints: the document never cached, the catalog may be', async () => {
    const s = new RawServer();
    const doc = await s.request(1, 'resources/read', { uri: 'effectcraft://document', _meta: envelope() });
    expect(doc.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    const cat = await s.request(2, 'resources/read', { uri: 'effectcraft://commands', _meta: envelope() });
    expect(cat.result).toMatchObject({ resultType: 'complete', cacheScope: 'private' });
    expect(cat.result?.ttlMs).toBeGreaterThan(0);
    const list = await s.request(3, 'resources/list', { _meta: envelope() });
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number) });
    const tools = await s.request(4, 'tools/list', { _meta: envelope() });
    expect(tools.result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number) });
    const call = await s.callModern(5, 'doc_inspect', {});
    expect(call.result).toMatchObject({ resultType: 'complete' });
    // 2025-era clients see none of it.
    const legacy = new RawServer();
    await legacy.initialize();
    const old = await legacy.request(1, 'resources/read', { uri: 'effectcraft://document' });
    expect(old.result).not.toHaveProperty('resultType');
    expect(old.result).not.toHaveProperty('ttlMs');
  });

  it('rejects unknown top-level tool arguments with -32602 naming the key and the accepted ones', async () => {
    const s = new RawServer();
    await s.initialize();
    const r = await s.request(1, 'tools/call', {
      name: 'command_run',
      arguments: { id: 'comp.new', bogus: 1 },
    });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.data).toMatchObject({ unknown: ['bogus'], accepted: ['id', 'params'] });
    expect(r.error?.message).toContain('bogus');
    const modern = new RawServer();
    const m = await modern.callModern(1, 'render_preview', { frame: 3 });
    expect(m.error?.code).toBe(-32602);
    expect(m.error?.data).toMatchObject({ unknown: ['frame'] });
  });

  it('answers arguments that are not an object, and an unknown tool, in a sentence naming the tools a model may call', async () => {
    const s = new RawServer();
    await s.initialize();
    const list = await s.request(1, 'tools/call', { name: 'doc_inspect', arguments: [1] });
    expect(list.error).toMatchObject({
      code: -32602,
      message: 'doc_inspect: "arguments" must be an object (or left out).',
    });
    const unknown = await s.request(2, 'tools/call', { name: 'no_such_tool', arguments: {} });
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toMatch(/^Unknown tool "no_such_tool"\. Tools: .*doc_inspect/);
    // The player's view calls player_frame; hosts keep it from the model, and so does this message.
    expect(unknown.error?.message).not.toContain('player_frame');
  });

  it('writes stdout protocol messages only', async () => {
    const s = new RawServer();
    await s.initialize();
    await s.request(1, 'tools/call', { name: 'command_run', arguments: { id: 'no.such' } });
    s.endInput();
    expect(await s.exited).toBe(0);
    for (const line of s.stdoutLines) expect(JSON.parse(line)).toHaveProperty('jsonrpc', '2.0');
  });

  it('lets an in-flight render finish and reply after stdin closes, then exits 0', async () => {
    const dir = await tempDir('ec-mcp-drain-');
    const s = new RawServer();
    await s.initialize();
    const setup = await s.request(1, 'tools/call', {
      name: 'command_batch',
      arguments: { steps: renderSetup(dir, 120, 256) },
    });
    expect(setup.result?.isError).toBeUndefined();
    s.send({
      jsonrpc: '2.0',
      id: 'render',
      method: 'tools/call',
      params: { name: 'command_run', arguments: { id: 'renderQueue.render' } },
    });
    s.endInput();
    expect(await s.exited).toBe(0);
    const reply = s.messages.find((m) => m.id === 'render');
    expect(reply?.result?.isError).toBeUndefined();
    expect((await readdir(dir)).filter((f) => f.endsWith('.png'))).toHaveLength(120);
  });
});
