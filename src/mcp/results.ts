/**
 * Turns tool outcomes into MCP CallToolResults, and maps failures at the MCP edge: tool failures are
 * results with `isError: true` and a structured `{code, message, remediation}`; protocol errors (bad
 * arguments, unknown tools) are JSON-RPC errors thrown as ProtocolError.
 */
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import type { ErrorInfo } from '../engine/index.js';
import { isPlainObject, type ToolOutcome } from './tools/types.js';

/**
 * Builds the CallToolResult a client sees. Any result with `failed > 0` is an error result too, and so is a
 * render with `stopped > 0` (renderQueue.stop from another caller): its items did not all finish, as the CLI's
 * exit 1 says, and a client reading isError alone must not take the missing output for a success.
 */
export function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  switch (outcome.kind) {
    case 'error':
      return errorResult(outcome.error);
    case 'image':
      return {
        content: [
          { type: 'image', data: outcome.data, mimeType: outcome.mimeType ?? 'image/png' },
          { type: 'text', text: JSON.stringify(outcome.info) },
        ],
        structuredContent: outcome.info,
      };
    case 'summary':
      return { content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.value };
    case 'json': {
      const structured = isPlainObject(outcome.value) ? outcome.value : { result: outcome.value };
      const { failed, stopped } = structured;
      const result: CallToolResult = {
        content: [{ type: 'text', text: JSON.stringify(outcome.text ?? outcome.value) }],
        structuredContent: structured,
      };
      // `stopped` is a count only in a render's summary (renderQueue.stop answers {stopped: true}).
      if ((typeof failed === 'number' && failed > 0) || (typeof stopped === 'number' && stopped > 0))
        result.isError = true;
      return result;
    }
  }
}

export function errorResult(error: ErrorInfo): CallToolResult {
  const body = { code: error.code, message: error.message, remediation: error.remediation };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

/** The result for an exception nobody expected: logged in full, reported to the client without internals. */
export function unexpectedFailure(tool: string, err: unknown, log: (m: string) => void): CallToolResult {
  log(`tool ${tool} failed unexpectedly: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return errorResult({
    code: 'tool_failed',
    message: `${tool} failed unexpectedly.`,
    remediation: 'Check the arguments and try again; if it persists, report it with the server log (stderr).',
  });
}

/** -32602 for a tools/call naming an unknown tool. */
export function unknownTool(name: string, known: string[]): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown tool "${name}". Tools: ${known.join(', ')}.`,
    { tool: name, tools: known },
  );
}

/** -32602 naming the unknown argument keys and the accepted ones. */
export function unknownArguments(tool: string, unknown: string[], accepted: string[]): ProtocolError {
  const keys = unknown.map((k) => `"${k}"`).join(', ');
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `${tool}: unknown argument${unknown.length > 1 ? 's' : ''} ${keys}. Accepted arguments: ${accepted.length ? accepted.join(', ') : '(none)'}.`,
    { tool, unknown, accepted },
  );
}

/** -32602 for arguments that are not an object at all. */
export function argumentsNotObject(tool: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `${tool}: "arguments" must be an object.`, {
    tool,
  });
}
