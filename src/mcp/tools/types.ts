/**
 * The shape of one MCP tool: name, title, hints, a strict zod input schema and a run function.
 * The server builds `tools/list` and `tools/call` from a table of these, so adding a tool is one entry.
 */
import type { z } from 'zod';
import type { ErrorInfo, ProgressInfo } from '../../engine/index.js';
import type { Confinement } from '../../confinement/types.js';
import type { Backend } from '../backend.js';
import type { CapabilityProbe } from '../capabilities.js';
import type { TaskPlan } from '../tasks/tool-task.js';

export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a running tool gets from the server. */
export interface ToolContext {
  readonly backend: Backend;
  readonly confinement?: Confinement;
  readonly capabilities: CapabilityProbe;
  /** Aborted when the client cancels this request (only wired for long-running headless tools). */
  readonly signal: AbortSignal;
  /** Set when the client asked for progress and this tool streams it (headless, blocking calls only). */
  readonly onProgress?: (info: ProgressInfo) => void;
  /** Diagnostics for the server log (stderr), never shown to the client. */
  log(message: string): void;
  /** Lets later tool calls start before this one ends (a blocking render, once it has its snapshot). */
  release?: () => void;
}

/** A tool's answer before it becomes an MCP CallToolResult (see results.ts). */
export type ToolOutcome =
  /** `text`: what the text content shows instead of `value` (get_output leaves its base64 bytes out of it). */
  | { kind: 'json'; value: unknown; text?: unknown }
  | { kind: 'error'; error: ErrorInfo }
  /** `data`: the image's base64; `mimeType`: image/png unless said. */
  | { kind: 'image'; data: string; mimeType?: string; info: Record<string, unknown> }
  /** Prose for the model (and hosts that show only text) with the same facts as structured content. */
  | { kind: 'summary'; text: string; value: Record<string, unknown> };

/** The keys a frame's image comes back under (frame.preview's result: its format's name), with their types. */
const IMAGE_KEYS = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/**
 * A result carrying a frame's image (frame.preview's, a screenshot's) as an image outcome, its facts beside it;
 * null when it carries none.
 */
export function imageOutcome(result: unknown): Extract<ToolOutcome, { kind: 'image' }> | null {
  if (!isPlainObject(result)) return null;
  for (const [key, mimeType] of Object.entries(IMAGE_KEYS)) {
    const data = result[key];
    if (typeof data !== 'string' || data.length === 0) continue;
    const { [key]: _image, ...info } = result;
    return { kind: 'image', data, mimeType, info };
  }
  return null;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  hints: ToolHints;
  /** A z.strictObject: its keys are the accepted arguments, anything else is -32602. */
  input: z.ZodObject;
  /** Streams MCP progress and honours notifications/cancelled (headless only). */
  longRunning?: boolean;
  /** Stops on notifications/cancelled (headless): its AbortSignal is wired, without progress. */
  cancellable?: boolean;
  /** MCP Apps (`_meta.ui` in tools/list): the view a host shows for it, and who may call it. */
  ui?: ToolUi;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
  /**
   * For a client that declared the tasks extension: a plan when this call runs as a task (a render), else
   * null and the call answers as usual.
   */
  asTask?(args: Record<string, unknown>, backend: Backend): TaskPlan | null;
}

/** A tool's MCP Apps metadata (extension io.modelcontextprotocol/ui; see src/mcp/player/apps.ts). */
export interface ToolUi {
  /** The ui:// resource a host renders the tool's result with. */
  resourceUri: string;
  /** Who may call it; the spec's default is both. ["app"] keeps it from the model (hosts filter it out). */
  visibility?: ('model' | 'app')[];
}

export const READ_ONLY_TOOL: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Runs engine commands: may edit, save or render, so it is the widest annotation that is still honest. */
export const COMMAND_TOOL: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** Helper so each tool's run function sees its parsed, typed arguments. */
export function defineTool<S extends z.ZodObject>(
  spec: Omit<ToolSpec, 'input' | 'run'> & {
    input: S;
    run(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
  },
): ToolSpec {
  return spec as unknown as ToolSpec;
}

/** Converts an engine ExecuteResult into a tool outcome. */
export function fromExecute(
  r: { ok: true; result: unknown; warnings?: string[] } | { ok: false; error: ErrorInfo },
): ToolOutcome {
  if (!r.ok) return { kind: 'error', error: r.error };
  if (!r.warnings?.length) return { kind: 'json', value: r.result };
  const value = isPlainObject(r.result)
    ? { ...r.result, warnings: r.warnings }
    : { result: r.result, warnings: r.warnings };
  return { kind: 'json', value };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
