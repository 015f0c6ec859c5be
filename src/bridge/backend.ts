/**
 * The MCP `Backend` of bridge mode: every tool call is checked here (params, confinement) and then
 * forwarded to the app over the control channel. Calls stay synchronous/polling: no progress, no
 * cancellation, and a render is always started with `wait: false` (the agent polls renderQueue.list).
 */
import type { Backend, GroupSteps, UiStatus } from '../mcp/backend.js';
import type { Confinement, ConfinementInfo } from '../confinement/types.js';
import { layeredConfinement, type LayeredConfinement } from './confinement-view.js';
import {
  isEngineError,
  traitsOf,
  type AnyCommand,
  type CommandTraits,
  type CatalogEntry,
  type ExecuteResult,
  type GroupResult,
  type ListOptions,
} from '../engine/index.js';
import { parseParams } from '../engine/validation.js';
import type { BridgeClient } from './client.js';
import { Timeouts } from './protocol.js';
import { UI_METHODS, type UiMethodName } from './ui-methods.js';

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

/** The control-channel method an MCP UI tool forwards to (ui_click -> ui.click), from the method table. */
const UI_METHOD_OF_TOOL = new Map(
  Object.entries(UI_METHODS).map(([method, spec]) => [spec.tool, method as UiMethodName]),
);

/** Where a call belongs: a step of a group opened on one connection (epoch). */
interface GroupScope {
  groupId: string;
  epoch: number;
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

  constructor(options: BridgeBackendOptions) {
    this.#client = options.client;
    this.#commands = new Map(options.commands.map((c) => [c.id, c]));
    this.#confinement = options.confinement;
    this.#longMs = options.longRequestTimeoutMs ?? Timeouts.longRequestMs;
  }

  /** Checks locally, then runs `id` in the app. Bridge calls ignore onProgress and signal (they stay polling). */
  execute(id: string, raw: unknown): Promise<ExecuteResult> {
    return this.#execute(id, raw, undefined);
  }

  #execute(id: string, raw: unknown, scope: GroupScope | undefined): Promise<ExecuteResult> {
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
      const refused = await this.#check(id, command, params, scope);
      if (refused) return refused;
      const wire = await this.#client.call(
        'engine.execute',
        { id, params, ...(scope ? { groupId: scope.groupId } : {}) },
        { timeoutMs: traits.longRunning ? this.#longMs : undefined, epoch: scope?.epoch },
      );
      const warnings = [...(wire.warnings ?? []), ...(note ? [note] : [])];
      return warnings.length
        ? { ok: true, result: wire.result, warnings }
        : { ok: true, result: wire.result };
    });
  }

  traits(id: string): CommandTraits {
    return traitsOf(this.#commands.get(id));
  }

  /** The app's studio: whether a page is open for the UI tools, and the remedy when not. */
  async uiStatus(): Promise<UiStatus> {
    return this.#client.call('studio.status', {});
  }

  async list(options: ListOptions): Promise<CatalogEntry[]> {
    return this.#client.call('engine.list', options);
  }

  /** Forwards a UI-driving tool call as its `ui.*` method; the headless app answers not_configured. */
  ui(tool: string, params: unknown): Promise<ExecuteResult> {
    return failureOf(async () => {
      const method = UI_METHOD_OF_TOOL.get(tool);
      if (!method) {
        return {
          ok: false,
          error: {
            code: 'unknown_command',
            message: `${tool} is not a UI tool of this bridge.`,
            remediation: `UI tools: ${[...UI_METHOD_OF_TOOL.keys()].join(', ')}.`,
          },
        };
      }
      const result = await this.#client.call(method, (params ?? {}) as never);
      return { ok: true, result };
    });
  }

  /**
   * Runs `fn` as a group held open in the app (engine.beginGroup/endGroup): the app's engine orders it with
   * every other caller's edits, makes its steps one undo step, and rolls them back when `fn` returns false,
   * throws, or the connection drops.
   */
  async group(label: string, fn: (steps: GroupSteps) => Promise<boolean>): Promise<GroupResult> {
    let groupId: string;
    try {
      ({ groupId } = await this.#client.call('engine.beginGroup', { label }));
    } catch (err) {
      if (isEngineError(err)) return { ok: false, error: err.toInfo() };
      throw err;
    }
    const scope: GroupScope = { groupId, epoch: this.#client.epoch };
    let ok = false;
    try {
      ok = await fn({ execute: (id, params) => this.#execute(id, params, scope) });
    } finally {
      try {
        const r = await this.#client.call('engine.endGroup', { groupId, commit: ok }, { epoch: scope.epoch });
        ok = ok && r.committed;
      } catch {
        // The app rolled the group back when the connection dropped (or the group timed out).
        ok = false;
      }
    }
    return { ok: true, committed: ok };
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
  async #check(
    id: string,
    command: AnyCommand | undefined,
    raw: unknown,
    scope: GroupScope | undefined,
  ): Promise<ExecuteResult | null> {
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
    const view = await this.#client.call('session.view', {}, { epoch: scope?.epoch });
    const refused = this.#confinement.guard(command, params, view);
    return refused ? { ok: false, error: refused } : null;
  }
}
