/**
 * What the app host answers on one connection: one handler per entry of the method table (methods.ts), each
 * given params already parsed by that table. hello comes first. Every edit goes through the engine, which alone
 * orders edits and groups: a group this connection opens holds the engine's edit order until it ends, and the
 * connection rolls back the groups it leaves open (timeout or close).
 */
import type { z } from 'zod';
import type { Actor, EditGroup, Engine, ErrorInfo } from '../engine/index.js';
import { RpcFailure } from './connection.js';
import { methodSpec, type EventName, type HelloResult, type MethodName } from './methods.js';
import { PROTOCOL_VERSION, RpcCodes, Timeouts } from './protocol.js';
import type { EVENTS, METHODS } from './methods.js';
import { UI_METHODS, type UiMethodName } from './ui-methods.js';

export interface HostIdentity {
  app: string;
  version: string;
  capabilities: HelloResult['capabilities'];
  /** The app's own roots, sent in hello so the bridge can tell the agent which roots are in force. */
  confinement?: HelloResult['confinement'];
}

export interface ConnectionScope {
  /** Sends a notification to this connection's peer. */
  notify<E extends EventName>(event: E, params: z.input<(typeof EVENTS)[E]>): void;
  groupTimeoutMs?: number;
  /** Who this connection's edits are from, given the client name it sent in hello (default: actorOfClient). */
  actorOf?: (client: string | undefined) => Actor;
  /** Where the UI methods go (the studio); without it they answer not_configured. */
  ui?: UiDriver;
  /**
   * Who is acting through this connection right now, when not its own client: an agent driving a studio page
   * with the UI tools (its clicks and settings become the page's commands, and are the agent's edits).
   */
  drivenBy?: () => Actor | null;
}

/** The app's face: the studio pages the UI methods drive, and its status for studio.status. */
export interface UiDriver {
  /** `caller`: the connection's actor, whose edits the page's commands are while it answers. */
  call(method: UiMethodName, params: unknown, signal: AbortSignal, caller?: Actor): Promise<unknown>;
  status(): z.input<(typeof METHODS)['studio.status']['result']>;
  /** A fresh one-time studio link. */
  link(): string;
}

/**
 * The actor of a control-channel client: the MCP bridge (`effectcraft-cli mcp`, which names itself so in hello)
 * is an agent; any other client (a script, a render farm's driver) is a pipeline.
 */
export function actorOfClient(client: string | undefined): Actor {
  const name = client?.trim() || 'control-channel client';
  return { kind: /\bmcp\b/i.test(name) ? 'agent' : 'pipeline', name };
}

type Handlers = {
  [M in MethodName]: (
    params: z.output<(typeof METHODS)[M]['params']>,
    signal: AbortSignal,
  ) => Promise<z.input<(typeof METHODS)[M]['result']>> | z.input<(typeof METHODS)[M]['result']>;
};

const appError = (error: ErrorInfo) => new RpcFailure(RpcCodes.applicationError, error);

function parse(schema: z.ZodType, params: unknown, method: string): unknown {
  const r = schema.safeParse(params ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new RpcFailure(RpcCodes.invalidParams, {
    code: 'bad_argument',
    message: `Invalid params for ${method} at "${issue?.path.join('.') || '(params)'}": ${issue?.message ?? 'invalid'}.`,
    remediation: 'See docs/control-channel.md for the params of each method.',
  });
}

/**
 * Creates the request handler of one connection. It refuses everything until a hello with a matching
 * protocol version, and rolls back the groups left open when the connection closes (`dispose`).
 */
export function createHostHandler(engine: Engine, identity: HostIdentity, scope: ConnectionScope) {
  let greeted = false;
  let actor: Actor = actorOfClient(undefined);
  const acting = (): Actor => scope.drivenBy?.() ?? actor;
  // Groups this connection opened and has not ended: each ends by engine.endGroup, its timeout, or the close.
  const groups = new Map<string, { group: EditGroup; timer: NodeJS.Timeout }>();

  const endGroup = (id: string, commit: boolean): Promise<boolean> => {
    const open = groups.get(id);
    if (!open) return Promise.resolve(false);
    groups.delete(id);
    clearTimeout(open.timer);
    return engine.endGroup(open.group, commit);
  };

  const groupOf = (groupId: string | undefined): EditGroup | undefined => {
    if (groupId === undefined) return undefined;
    const open = groups.get(groupId);
    if (!open) throw appError(noGroup(groupId));
    return open.group;
  };

  const handlers: Handlers = {
    hello(p) {
      if (p.protocol !== PROTOCOL_VERSION) {
        throw new RpcFailure(RpcCodes.invalidRequest, {
          code: 'bad_argument',
          message: `The app speaks control-channel protocol ${PROTOCOL_VERSION}; the client asked for ${p.protocol}.`,
          remediation: 'Use an effectcraft-cli of the same version for the app and the MCP bridge.',
        });
      }
      greeted = true;
      actor = (scope.actorOf ?? actorOfClient)(p.client);
      return { protocol: PROTOCOL_VERSION, ...identity };
    },
    async 'engine.execute'(p, signal) {
      const r = await engine.execute(p.id, p.params, {
        signal,
        actor: acting(),
        group: groupOf(p.groupId),
        onProgress: (info) => scope.notify('event.progress', { command: p.id, ...info }),
      });
      if (!r.ok) throw appError(r.error);
      return r.warnings ? { result: r.result, warnings: r.warnings } : { result: r.result };
    },
    'engine.list': (p) => engine.list(p),
    async 'engine.batch'(p, signal) {
      const steps: Array<
        { id: string; ok: true; result: unknown } | { id: string; ok: false; error: ErrorInfo }
      > = [];
      const run = await engine.group(
        p.label ?? 'Batch',
        async (group) => {
          for (const step of p.steps) {
            const r = await engine.execute(step.id, step.params, { group, signal, actor: acting() });
            steps.push(
              r.ok ? { id: step.id, ok: true, result: r.result } : { id: step.id, ok: false, error: r.error },
            );
            if (!r.ok) return false;
          }
          return true;
        },
        { rollback: p.atomic ?? true, signal },
      );
      if (!run.ok) throw appError(run.error);
      return { ok: steps.length === p.steps.length && steps.every((s) => s.ok), steps };
    },
    async 'engine.beginGroup'(p, signal) {
      // Waits its turn in the engine's edit order (bounded: busy), like any edit.
      const begun = await engine.beginGroup(p.label, { signal });
      if (!begun.ok) throw appError(begun.error);
      const id = begun.group.id;
      const timer = setTimeout(() => void endGroup(id, false), scope.groupTimeoutMs ?? Timeouts.groupMs);
      timer.unref();
      groups.set(id, { group: begun.group, timer });
      return { groupId: id };
    },
    async 'engine.endGroup'(p) {
      if (!groups.has(p.groupId)) throw appError(noGroup(p.groupId));
      return { committed: await endGroup(p.groupId, p.commit) };
    },
    // The engine's view is exactly the reply: {doc, projectPath, canUndo, canRedo, unsaved}.
    'session.view': () => engine.view,
    'studio.status': () => scope.ui?.status() ?? NO_STUDIO,
    'studio.link'() {
      if (!scope.ui) throw appError(noStudio('studio.link'));
      return { url: scope.ui.link() };
    },
    ...uiHandlers(scope.ui, () => actor),
  };

  async function handle(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    const spec = methodSpec(method);
    if (!spec) {
      throw new RpcFailure(RpcCodes.methodNotFound, {
        code: 'unknown_command',
        message: `Unknown control-channel method "${method}".`,
        remediation: 'See docs/control-channel.md for the methods a host answers.',
      });
    }
    if (!greeted && method !== 'hello') {
      throw new RpcFailure(RpcCodes.invalidRequest, {
        code: 'bad_argument',
        message: `${method} was sent before hello.`,
        remediation: 'Send hello {protocol: 1} first.',
      });
    }
    const run = handlers[method as MethodName] as (p: unknown, s: AbortSignal) => unknown;
    return run(parse(spec.params, params, method), signal);
  }

  return {
    handle,
    /** Rolls back the groups the peer left open. */
    async dispose(): Promise<void> {
      await Promise.all([...groups.keys()].map((id) => endGroup(id, false)));
    },
  };
}

/** Each UI method goes to the studio; without one, it says so plainly rather than pretend. */
function uiHandlers(ui: UiDriver | undefined, caller: () => Actor): Pick<Handlers, UiMethodName> {
  const forward = (method: UiMethodName) => (params: unknown, signal: AbortSignal) => {
    if (!ui) throw appError(noStudio(method));
    return ui.call(method, params, signal, caller());
  };
  return Object.fromEntries(
    Object.keys(UI_METHODS).map((m) => [m, forward(m as UiMethodName)]),
  ) as unknown as Pick<Handlers, UiMethodName>;
}

const NO_STUDIO = {
  served: false,
  url: null,
  pages: 0,
  driving: null,
  headless: false,
  browser: null,
  remediation:
    'This app serves no studio; start effectcraft-cli app (which serves one) and open its studio URL.',
};

function noStudio(method: string): ErrorInfo {
  return {
    code: 'not_configured',
    message: `${method}: this app serves no studio page to drive.`,
    remediation: 'Use engine commands instead, or start effectcraft-cli app, which serves the studio.',
  };
}

function noGroup(groupId: string): ErrorInfo {
  return {
    code: 'not_found',
    message: `No open group "${groupId}" on this connection (it may have timed out and been rolled back).`,
    remediation: 'Check the document state, then run the steps again.',
  };
}
