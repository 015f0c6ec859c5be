import { ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { checkArguments, listTools } from '../../../src/mcp/dispatch.js';
import { toCallToolResult } from '../../../src/mcp/results.js';
import { toolTable } from '../../../src/mcp/tools/index.js';

const table = toolTable({ version: '1' });
const tool = (name: string) => table.find((t) => t.name === name)!;

describe('checkArguments', () => {
  it('throws -32602 naming unknown keys and the accepted arguments', () => {
    let err: unknown;
    try {
      checkArguments(tool('command_batch'), { steps: [], stop_on_eror: false, x: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(-32602);
    expect((err as ProtocolError).data).toEqual({
      tool: 'command_batch',
      unknown: ['stop_on_eror', 'x'],
      accepted: ['steps', 'stop_on_error'],
    });
  });

  it('throws -32602 for arguments that are not an object', () => {
    expect(() => checkArguments(tool('doc_inspect'), [1])).toThrow(ProtocolError);
  });

  it('accepts missing arguments for tools without required ones', () => {
    expect(checkArguments(tool('doc_inspect'), undefined)).toEqual({ ok: true, args: {} });
  });

  it('returns a bad_argument error result for wrong types', () => {
    const r = checkArguments(tool('command_run'), { id: 3 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.result.isError).toBe(true);
      expect(r.result.structuredContent).toMatchObject({ code: 'bad_argument' });
    }
  });

  it('names the argument and what is wrong with it, in a sentence, not a validation dump', () => {
    const big = checkArguments(tool('render_preview'), { max_side: 5000 });
    expect(big.ok).toBe(false);
    if (!big.ok)
      expect(big.result.structuredContent).toMatchObject({
        code: 'bad_argument',
        message: 'Invalid argument "max_side" for render_preview: Too big: expected number to be <=2048.',
        remediation: 'Fix "max_side" to match the inputSchema of render_preview in tools/list.',
      });
    const missing = checkArguments(tool('command_run'), {});
    if (!missing.ok)
      expect((missing.result.structuredContent as { message: string }).message).toBe(
        'Missing required argument "id" for command_run.',
      );
    expect(missing.ok).toBe(false);
  });
});

describe('listTools', () => {
  it('gives each tool a title, the four hints and a closed object schema', () => {
    for (const t of listTools(table)) {
      expect(t.title).toBeTruthy();
      expect(Object.keys(t.annotations ?? {}).sort()).toEqual(
        ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title'].sort(),
      );
      expect(t.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(t.inputSchema).not.toHaveProperty('$schema');
    }
  });

  it('lists the UI tools only in bridge mode', () => {
    expect(toolTable({ version: '1', bridge: true }).length).toBeGreaterThanOrEqual(table.length);
    expect(table.some((t) => t.name.startsWith('ui_'))).toBe(false);
  });
});

describe('toCallToolResult', () => {
  it('marks results with failed > 0 as errors and keeps the details', () => {
    const r = toCallToolResult({ kind: 'json', value: { completed: 1, failed: 1, results: [] } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toEqual({ completed: 1, failed: 1, results: [] });
    expect(toCallToolResult({ kind: 'json', value: { failed: 0 } }).isError).toBeUndefined();
  });

  it('wraps non-object results so structuredContent is always an object', () => {
    expect(toCallToolResult({ kind: 'json', value: 42 }).structuredContent).toEqual({ result: 42 });
  });

  it('turns errors into {code, message, remediation}', () => {
    const r = toCallToolResult({
      kind: 'error',
      error: { code: 'no_such_file', message: 'm', remediation: 'r' },
    });
    expect(r).toMatchObject({
      isError: true,
      structuredContent: { code: 'no_such_file', message: 'm', remediation: 'r' },
    });
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
  });
});
