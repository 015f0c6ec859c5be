/**
 * `effectcraft-cli mcp` through the official MCP client (@modelcontextprotocol/client) over real stdio,
 * in the 2025-11-25 era (initialize) and pinned to 2026-07-28 (per-request _meta, server/discover).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { MODERN, connectClient } from './mcp-helpers.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/tmp.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function open(era: 'legacy' | 'modern'): Promise<Client> {
  const c = await connectClient(era);
  clients.push(c);
  return c;
}

const TOOLS = [
  'command_list',
  'command_run',
  'command_batch',
  'doc_inspect',
  'render_preview',
  'capabilities',
  'list_commands',
  'execute_command',
  'batch',
  'run_script',
  'preview_player',
];

describe.each(['legacy', 'modern'] as const)('mcp with the official client (%s era)', (era) => {
  it('lists every tool with a title, the four hints and a strict input schema', async () => {
    const c = await open(era);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of tools) {
      expect(t.title).toBeTruthy();
      expect(t.annotations).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: expect.any(Boolean),
      });
      expect(t.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    }
  });

  it('edits through command_run and sees the edit in doc_inspect and the document resource', async () => {
    const c = await open(era);
    const run = await c.callTool({
      name: 'command_run',
      arguments: { id: 'comp.new', params: { name: 'Main', width: 320, height: 180 } },
    });
    expect(run.isError).toBeFalsy();
    expect(run.structuredContent).toMatchObject({ id: expect.any(String) });
    const inspect = await c.callTool({ name: 'doc_inspect', arguments: {} });
    expect(JSON.stringify(inspect.structuredContent)).toContain('Main');
    const resource = await c.readResource({ uri: 'effectcraft://document' });
    const first = resource.contents[0] as { text: string };
    expect(JSON.parse(first.text)).toEqual(inspect.structuredContent);
    // The resource is the whole catalog in one piece; the tool's first page is its start.
    const catalog = await c.readResource({ uri: 'effectcraft://commands' });
    const list = await c.callTool({ name: 'command_list', arguments: {} });
    const whole = JSON.parse((catalog.contents[0] as { text: string }).text) as {
      count: number;
      commands: [];
    };
    const page = list.structuredContent as { count: number; total: number; commands: [] };
    expect(whole.count).toBe(page.total);
    expect(whole.commands.slice(0, page.count)).toEqual(page.commands);
  });

  it('reports tool failures as isError results with {code, message, remediation}', async () => {
    const c = await open(era);
    const r = await c.callTool({ name: 'command_run', arguments: { id: 'no.such.command' } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({
      code: 'unknown_command',
      message: expect.any(String),
      remediation: expect.any(String),
    });
    expect(JSON.stringify(r)).not.toMatch(/\n\s+at /);
  });

  it('rejects an unknown argument key with JSON-RPC -32602', async () => {
    const c = await open(era);
    const err = await c
      .callTool({ name: 'doc_inspect', arguments: { verbose: true } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(-32602);
  });

  it('command_batch: stops at the first error, marks the result isError, each step its own undo', async () => {
    const c = await open(era);
    const r = await c.callTool({
      name: 'command_batch',
      arguments: {
        steps: [
          { id: 'comp.new', params: { name: 'A', width: 100, height: 100 } },
          { id: 'comp.new', params: { name: 'B', width: -1, height: 100 } },
          { id: 'comp.new', params: { name: 'C', width: 100, height: 100 } },
        ],
      },
    });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ completed: 1, failed: 1, skipped: 1 });
    const undo = await c.callTool({ name: 'command_run', arguments: { id: 'edit.undo' } });
    expect(undo.isError).toBeFalsy();
    const doc = JSON.stringify((await c.callTool({ name: 'doc_inspect', arguments: {} })).structuredContent);
    expect(doc).not.toContain('"A"');
  });

  it('command_batch: a step takes an earlier result by reference ("$0.id"), and a bad reference fails its step', async () => {
    const c = await open(era);
    const r = await c.callTool({
      name: 'command_batch',
      arguments: {
        steps: [
          { id: 'comp.new', params: { name: 'Refs', width: 100, height: 100 } },
          { id: 'layer.addSolid', params: { comp: '$0.id', name: 'Fill', color: '#ff0000' } },
          { id: 'layer.rename', params: { comp: '$0.id', layer: '$1.id', name: 'Renamed' } },
          { id: 'layer.rename', params: { comp: '$0.id', layer: '$1.nope', name: 'X' } },
        ],
      },
    });
    expect(r.isError).toBe(true);
    const out = r.structuredContent as {
      completed: number;
      results: Array<{ ok: boolean; error?: { message: string } }>;
    };
    expect(out.completed).toBe(3);
    expect(out.results[3]!.error!.message).toContain('has no field "nope"');
    const doc = JSON.stringify((await c.callTool({ name: 'doc_inspect', arguments: {} })).structuredContent);
    expect(doc).toContain('"Renamed"');
  });

  it('batch: one undo step, result references, and rollback on failure', async () => {
    const c = await open(era);
    const ok = await c.callTool({
      name: 'batch',
      arguments: {
        steps: [
          { id: 'comp.new', params: { name: 'Ref', width: 100, height: 100 } },
          { id: 'comp.setActive', params: { comp: '$0.id' } },
        ],
      },
    });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toMatchObject({ completed: 2, failed: 0, rolled_back: false });
    const failed = await c.callTool({
      name: 'batch',
      arguments: {
        steps: [
          { id: 'comp.new', params: { name: 'Gone', width: 100, height: 100 } },
          { id: 'comp.delete', params: { comp: 'does-not-exist' } },
        ],
      },
    });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ failed: 1, rolled_back: true });
    let doc = JSON.stringify((await c.callTool({ name: 'doc_inspect', arguments: {} })).structuredContent);
    expect(doc).not.toContain('Gone');
    expect(doc).toContain('Ref');
    await c.callTool({ name: 'command_run', arguments: { id: 'edit.undo' } });
    doc = JSON.stringify((await c.callTool({ name: 'doc_inspect', arguments: {} })).structuredContent);
    expect(doc).not.toContain('Ref');
  });

  it('render_preview returns a real PNG as image content with the frame information', async () => {
    const c = await open(era);
    await c.callTool({
      name: 'command_run',
      arguments: {
        id: 'comp.new',
        params: { name: 'P', width: 320, height: 180, backgroundColor: '#ff0000' },
      },
    });
    const r = await c.callTool({ name: 'render_preview', arguments: { max_side: 64, time: 0.5 } });
    expect(r.isError).toBeFalsy();
    const image = (r.content as { type: string; data: string; mimeType: string }[])[0]!;
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(Buffer.from(image.data, 'base64').subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(r.structuredContent).toMatchObject({
      comp: { name: 'P' },
      time: 0.5,
      size: { width: 64, height: 36 },
    });
    const none = await c.callTool({ name: 'render_preview', arguments: { comp: 'nope' } });
    expect(none.isError).toBe(true);
    // With output, the same PNG is written to disk.
    const dir = await tempDir();
    const saved = await c.callTool({
      name: 'render_preview',
      arguments: { max_side: 64, output: join(dir, 'p.png') },
    });
    expect(saved.isError).toBeFalsy();
    const data = (saved.content as { type: string; data: string }[]).find((x) => x.type === 'image')!.data;
    expect((await readFile(join(dir, 'p.png'))).equals(Buffer.from(data, 'base64'))).toBe(true);
    // A .jpg output is a JPEG preview (mcp-preview-format.test.ts); a .gif is no preview format.
    const wrong = await c.callTool({ name: 'render_preview', arguments: { output: join(dir, 'p.gif') } });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toMatchObject({ code: 'bad_argument' });
    expect((wrong.structuredContent as { message: string }).message).toContain('"output"');
  });

  it('render_preview path errors name the argument the caller used', async () => {
    const c = await open(era);
    await c.callTool({
      name: 'command_run',
      arguments: { id: 'comp.new', params: { name: 'Main', width: 32, height: 18 } },
    });
    const r = await c.callTool({ name: 'render_preview', arguments: { output: 'rel.png' } });
    expect(r.isError).toBe(true);
    const error = r.structuredContent as { code: string; message: string; remediation: string };
    expect(error.code).toBe('bad_argument');
    expect(error.message).toContain('"output" must be an absolute path');
    expect(`${error.message} ${error.remediation}`).not.toContain('"path"');
  });

  it('run_script runs code against the scripting API', async () => {
    const c = await open(era);
    const r = await c.callTool({
      name: 'run_script',
      arguments: {
        code: 'const r = await app.run("comp.new", {width: 8, height: 8}); app.log("made", r.id); return r.id;',
      },
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ result: expect.any(String), commands: 1 });
  });

  it('capabilities reports every tool with availability and time limits', async () => {
    const c = await open(era);
    const r = await c.callTool({ name: 'capabilities', arguments: {} });
    const report = r.structuredContent as { server: string; tools: { name: string; available: boolean }[] };
    expect(report.server).toBe('effectcraft-cli');
    expect(report.tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of report.tools) expect(t).toHaveProperty('timeout_s');
  });
});

describe('mcp probing', () => {
  it("survives the official client's auto negotiation (it starts the server twice) and lands on 2026-07-28", async () => {
    const c = await connectClient('auto');
    clients.push(c);
    expect(c.getNegotiatedProtocolVersion()).toBe(MODERN);
    const r = await c.callTool({ name: 'doc_inspect', arguments: {} });
    expect(r.isError).toBeFalsy();
  });
});
