/**
 * The MCP `Backend` of bridge mode: every tool call is checked here (params, confinement) and then
 * forwarded to the app over the control channel. Calls stay synchronous/polling: no progress, no
 * cancellation, and a render is always started with `wait: false` (the agent polls renderQueue.list).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Backend } from '../mcp/backend.js';
import type { Confinement, ConfinementInfo } from '../confinement/types.js';
import { layeredConfinement, type LayeredConfinement } from './confinement-view.js';
import {
  isEngineError,
  traitsOf,
  type AnyCommand,
  type CommandTraits,
  type CatalogEntry,
  type ExecuteResult,
  type ListOptions,
  type SessionView,
} from '../engine/index.js';
import { parseParams } from '../engine/validation.js';
import type { BridgeClient } from './client.js';
import { GroupLock } from './group-lock.js';
import { Methods, Timeouts, UI_PREFIX, type ExecuteWireResult } from './protocol.js';

export interface BridgeBackendOptions {
  client: BridgeClient;
  /** Local copies of the command definitions (same code as the app), so checks run before forwarding. */
  commands: readonly AnyCommand[];
  confinement?: Confinement;
  longRequestTimeoutMs?: number;
}

/** The note added to a render's warnings when the bridge turned it into a background render. */
export const RENDER_NOTE =
  'Bridge mode: the render was started in the app with wait:false; poll renderQueue.list until the item is done.';

/** Maps an MCP UI tool name to its control-channel method: ui_click -> ui.click, script_ui -> ui.script. */
export function uiMethod(tool: string): string {
  if (tool.startsWith(UI_PREFIX)) return tool;
  return UI_PREFIX + tool.replace(/^ui_/, '').replace(/_ui$/, '');
}

async function failureOf(call: () => Promise<ExecuteResult>): Promise<ExecuteResult> {
  try {
    return await call();
  } catch (err) {
    if (isEngineError(err)) return { ok: false, error: err.toInfo() };
    throw err;
  }
}

export class BridgeBackend implements Backend {
  readonly kind = 'bridge' as const;
  readonly #client: BridgeClient;
  readonly #commands: Map<string, AnyCommand>;
  readonly #confinement: Confinement | undefined;
  readonly #longMs: number;
  // Calls made inside a group's fn carry the connection epoch the group was opened on, so its steps
  // never leak onto a new connection; concurrent tool calls outside the fn do not carry it.
  readonly #inGroup = new AsyncLocalStorage<{ epoch: number }>();
  // One open group per connection on the host: concurrent batches take turns here.
  readonly #groupLock = new GroupLock();

  constructor(options: BridgeBackendOptions) {
    this.#client = options.client;
    this.#commands = new Map(options.commands.map((c) => [c.id, c]));
    this.#confinement = options.confinement;
    this.#longMs = options.longRequestTimeoutMs ?? Timeouts.longRequestMs;
  }

  /** Checks locally, then runs `id` in the app. Bridge calls ignore onProgress and signal (they stay polling). */
  execute(id: string, raw: unknown): Promise<ExecuteResult> {
    return failureOf(async () => {
      const command = this.#commands.get(id);
      const traits = traitsOf(command);
      let params = raw;
      let note: string | undefined;
      // A job that waits would hold the tool call for minutes with no progress: start it in the background.
      const waitParam = traits.backgroundJob?.waitParam;
      if (waitParam !== undefined) {
        const given = (raw ?? {}) as Record<string, unknown>;
        if (given[waitParam] !== false) {
          params = { ...given, [waitParam]: false };
          note = RENDER_NOTE;
        }
      }
      const refused = await this.#check(id, command, params);
      if (refused) return refused;
      const wire = (await this.#client.call(
        Methods.execute,
        { id, params },
        { timeoutMs: traits.longRunning ? this.#longMs : undefined, epoch: this.#inGroup.getStore()?.epoch },
      )) as ExecuteWireResult;
      const warnings = [...(wire.warnings ?? []), ...(note ? [note] : [])];
      return warnings.length
        ? { ok: true, result: wire.result, warnings }
        : { ok: true, result: wire.result };
    });
  }

  traits(id: string): CommandTraits {
    return traitsOf(this.#commands.get(id));
  }

  async list(options: ListOptions): Promise<CatalogEntry[]> {
    return (await this.#client.call(Methods.list, options)) as CatalogEntry[];
  }

  /** Forwards a UI-driving call as `ui.<method>`; the headless app answers not_configured. */
  ui(method: string, params: unknown): Promise<ExecuteResult> {
    return failureOf(async () => {
      const name = uiMethod(method);
      const result = await this.#client.call(name, params ?? {}, { epoch: this.#inGroup.getStore()?.epoch });
      return { ok: true, result };
    });
  }

  /**
   * Runs `fn` inside a group held open in the app (engine.beginGroup/endGroup), so its edits are one undo
   * step and are rolled back there when `fn` returns false, throws, or the connection drops.
   */
  async group(label: string, fn: () => Promise<boolean>): Promise<boolean> {
    if (this.#inGroup.getStore()) return fn(); // nested: the outer group decides
    const release = await this.#groupLock.acquire();
    try {
      const { groupId } = (await this.#client.call(Methods.beginGroup, { label })) as { groupId: string };
      const epoch = this.#client.epoch;
      let ok = false;
      try {
        ok = await this.#inGroup.run({ epoch }, fn);
      } finally {
        try {
          const r = (await this.#client.call(Methods.endGroup, { groupId, commit: ok }, { epoch })) as {
            committed: boolean;
          };
          ok = ok && r.committed;
        } catch {
          // The app rolled the group back when the connection dropped (or the group timed out).
          ok = false;
        }
      }
      return ok;
    } finally {
      release();
    }
  }

  close(): Promise<void> {
    return this.#client.close();
  }

  /** Both layers: this process's roots and the app's (from its hello), with their intersection on top. */
  async describeConfinement(local: ConfinementInfo): Promise<LayeredConfinement> {
    try {
      const hello = await this.#client.connect();
      return layeredConfinement(
        local,
        hello.confinement ?? { unknown: `${hello.app} ${hello.version} does not report its confinement.` },
      );
    } catch (err) {
      if (!isEngineError(err)) throw err;
      return layeredConfinement(local, { unknown: `${err.message} ${err.remediation}` });
    }
  }

  /** Params and confinement, checked before anything is sent. Null when the command may be forwarded. */
  async #check(id: string, command: AnyCommand | undefined, raw: unknown): Promise<ExecuteResult | null> {
    const confined = this.#confinement?.info.confined ?? false;
    if (!command) {
      if (!confined) return null; // the app answers unknown_command (or knows a newer command)
      return {
        ok: false,
        error: {
          code: 'refused_while_confined',
          message: `${id} is not known to this client, so its file access cannot be checked under confinement.`,
          remediation:
            'Use the same effectcraft-cli version for the app and the bridge, or run without confinement.',
        },
      };
    }
    const params = parseParams(command.params, raw, id);
    if (!confined || !this.#confinement) return null;
    // Security: the guard needs the app's live document (save targets, render outputs), so fetch it now.
    const view = (await this.#client.call(
      Methods.view,
      {},
      { epoch: this.#inGroup.getStore()?.epoch },
    )) as SessionView;
    const refused = this.#confinement.guard(command, params, view);
    return refused ? { ok: false, error: refused } : null;
  }
}
