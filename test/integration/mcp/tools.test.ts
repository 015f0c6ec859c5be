/** The tools in process: image results, confinement, unexpected failures, capabilities, a cheap factory. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import { CapabilityProbe } from '../../../src/mcp/capabilities.js';
import { createHeadlessBackend } from '../../../src/mcp/headless-backend.js';
import { createServerFactory } from '../../../src/mcp/server.js';
import { createSession } from '../../../src/session.js';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_PNG, HOST_OK, harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('MCP tools in process', () => {
  it('render_preview returns the PNG as image content and the frame info as structured content', async () => {
    h = await harness();
    const r = await h.client.callTool({
      name: 'render_preview',
      arguments: { comp: 'Main', time: 1, max_side: 64 },
    });
    expect(r.isError).toBeFalsy();
    const content = r.content as { type: string; data?: string; mimeType?: string }[];
    expect(content[0]).toEqual({ type: 'image', data: FAKE_PNG, mimeType: 'image/png' });
    expect(r.structuredContent).toMatchObject({
      comp: { name: 'Main' },
      time: 1,
      size: { width: 64 },
      warnings: [],
    });
    expect(r.structuredContent).not.toHaveProperty('png');
  });

  it('an unexpected exception becomes tool_failed without a stack; the details go to the log', async () => {
    h = await harness({
      backend: (b) => ({
        ...b,
        execute: async () => {
          throw new Error('kaboom inside');
        },
      }),
    });
    const r = await h.client.callTool({ name: 'command_run', arguments: { id: 'comp.new' } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ code: 'tool_failed' });
    expect(JSON.stringify(r)).not.toContain('kaboom');
    expect(h.logs.join('\n')).toContain('kaboom inside');
  });

  it('bad argument types are isError bad_argument results (the model can correct them)', async () => {
    h = await harness();
    const r = await h.client.callTool({ name: 'command_run', arguments: { id: 42 } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ code: 'bad_argument' });
  });

  it('capabilities reports video formats missing without ffmpeg, with the remedy', async () => {
    h = await harness({ facts: { ...HOST_OK, ffmpeg: { reason: 'ffmpeg was not found on PATH' } } });
    const r = await h.client.callTool({ name: 'capabilities', arguments: {} });
    const tools = (
      r.structuredContent as { tools: { name: string; available: boolean; without?: string[] }[] }
    ).tools;
    const run = tools.find((t) => t.name === 'command_run')!;
    expect(run.available).toBe(true);
    expect(run.without?.join(' ')).toMatch(/ffmpeg/);
    expect((r.structuredContent as { version: string }).version).toBe('9.9.9');
  });

  it('capabilities marks render_preview unavailable when the native modules do not load', async () => {
    h = await harness({ facts: { ...HOST_OK, canvas: '@napi-rs/canvas does not load: x' } });
    const r = await h.client.callTool({ name: 'capabilities', arguments: {} });
    const tools = (
      r.structuredContent as { tools: { name: string; available: boolean; remediation?: string }[] }
    ).tools;
    expect(tools.find((t) => t.name === 'render_preview')).toMatchObject({
      available: false,
      remediation: expect.any(String),
    });
  });

  it('the server factory is cheap: building instances probes nothing and runs no command', async () => {
    let probes = 0;
    let executed = 0;
    const session = createSession();
    const base = createHeadlessBackend(session.engine);
    const backend = {
      ...base,
      execute: (...a: Parameters<typeof base.execute>) => (executed++, base.execute(...a)),
    };
    const factory = createServerFactory(backend, {
      version: '1',
      capabilities: new CapabilityProbe(async () => (probes++, HOST_OK)),
    });
    await factory({ era: 'legacy' });
    await factory({ era: 'modern' });
    expect(probes).toBe(0);
    expect(executed).toBe(0);
  });
});

describe('MCP tools while confined', () => {
  it('refuses run_script, reports the roots, and refuses batch result references used as paths', async () => {
    const root = await tempDir('ec-mcp-root-');
    const confinement = createConfinement({ readRoots: [root], writeRoots: [root] });
    h = await harness({ confinement });
    const script = await h.client.callTool({ name: 'run_script', arguments: { code: 'return 1' } });
    expect(script.isError).toBe(true);
    expect(script.structuredContent).toMatchObject({ code: 'refused_while_confined' });
    const file = join(root, 's.js');
    await writeFile(file, 'return 1');
    const byPath = await h.client.callTool({ name: 'run_script', arguments: { path: file } });
    expect(byPath.structuredContent).toMatchObject({ code: 'refused_while_confined' });

    const inspect = await h.client.callTool({ name: 'doc_inspect', arguments: {} });
    expect(inspect.structuredContent).toMatchObject({
      confinement: { confined: true, writeRoots: [expect.any(String)] },
    });
    const caps = await h.client.callTool({ name: 'capabilities', arguments: {} });
    expect(caps.structuredContent).toMatchObject({ confinement: { confined: true } });

    // A literal path inside the write root is fine; the same path reached through a $N reference is refused.
    const target = join(root, 'p.ecproj');
    const literal = await h.client.callTool({
      name: 'batch',
      arguments: { steps: [{ id: 'project.save', params: { path: target } }] },
    });
    expect(literal.isError).toBeFalsy();
    const viaRef = await h.client.callTool({
      name: 'batch',
      arguments: {
        steps: [
          { id: 'test.echo', params: { path: target } },
          { id: 'project.save', params: { path: '$0.path' } },
        ],
      },
    });
    expect(viaRef.isError).toBe(true);
    expect(viaRef.structuredContent).toMatchObject({ failed: 1, rolled_back: true });
    const results = (
      viaRef.structuredContent as {
        results: { ok: boolean; error?: { code: string; remediation: string } }[];
      }
    ).results;
    expect(results[1]?.error?.code).toBe('refused_while_confined');
    // The step that ran first was undone with the batch, and says so.
    expect(results[0]).toMatchObject({ ok: true, rolled_back: true });
    // The remedy names what an agent has over MCP (the capabilities tool), never the server's start-up flags.
    expect(results[1]?.error?.remediation).toContain('capabilities');
    expect(results[1]?.error?.remediation).not.toMatch(/--[a-z]/);
    // command_batch takes references too, with the same rule for paths.
    const perStep = await h.client.callTool({
      name: 'command_batch',
      arguments: {
        steps: [
          { id: 'test.echo', params: { path: target } },
          { id: 'project.save', params: { path: '$0.path' } },
        ],
      },
    });
    expect(perStep.isError).toBe(true);
    const steps = (perStep.structuredContent as { results: { ok: boolean; error?: { code: string } }[] })
      .results;
    expect(steps[0]?.ok).toBe(true);
    expect(steps[1]?.error?.code).toBe('refused_while_confined');
  });
});
