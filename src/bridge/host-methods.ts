/**
 * What the app host answers on one connection: hello first, then engine.*, session.view and ui.*.
 * Every method goes through the same `engine.execute`; this file only adapts params and results.
 */
import { z } from 'zod';
import type { Engine, ErrorInfo } from '../engine/index.js';
import { RpcFailure } from './connection.js';
import {
  Events,
  Methods,
  PROTOCOL_VERSION,
  RpcCodes,
  Timeouts,
  UI_PREFIX,
  type BatchWireResult,
  type ExecuteWireResult,
  type HelloResult,
} from './protocol.js';
import type { GroupLock } from './group-lock.js';

const HelloParams = z.object({
  protocol: z.number().int(),
  client: z.string().optional(),
  version: z.string().optional(),
});
const ExecuteParams = z.strictObject({ id: z.string().min(1), params: z.unknown().optional() });
const ListParams = z.strictObject({
  filter: z.string().optional(),
  enabledOnly: z.boolean().optional(),
  schemas: z.boolean().optional(),
});
const Step = z.strictObject({ id: z.string().min(1), params: z.unknown().optional() });
const BatchParams = z.strictObject({
  steps: z.array(Step).min(1).max(1000),
  atomic: z.boolean().optional(),
  label: z.string().optional(),
});
const BeginGroupParams = z.strictObject({ label: z.string().min(1).max(200) });
const EndGroupParams = z.strictObject({ groupId: z.string(), commit: z.boolean() });

export interface HostIdentity {
  app: string;
  version: string;
  capabilities: HelloResult['capabilities'];
  /** The app's own roots, sent in hello so the bridge can tell the agent which roots are in force. */
  confinement?: HelloResult['confinement'];
}

export interface ConnectionScope {
  /** Sends a notification to this connection's peer. */
  notify(method: string, params: unknown): void;
  groupLock: GroupLock;
  groupTimeoutMs?: number;
}

function parse<T>(schema: z.ZodType<T>, params: unknown, method: string): T {
  const r = schema.safeParse(params ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new RpcFailure(RpcCodes.invalidParams, {
    code: 'bad_argument',
    message: `Invalid params for ${method} at "${issue?.path.join('.') || '(params)'}": ${issue?.message ?? 'invalid'}.`,
    remediation: 'See docs/control-channel.md for the params of each method.',
  });
}

const appError = (error: ErrorInfo) => new RpcFailure(RpcCodes.applicationError, error);

/**
 * Creates the request handler of one connection. It refuses everything until a hello with a matching
 * protocol version, and rolls back a group left open when the connection closes (`dispose`).
 */
export function createHostHandler(engine: Engine, identity: HostIdentity, scope: ConnectionScope) {
  let greeted = false;
  // The group this connection holds open: ended by engine.endGroup, a timeout, or the connection closing.
  let group: { id: string; end(commit: boolean): Promise<boolean> } | null = null;
  let groupSeq = 0;

  async function handle(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    if (method === Methods.hello) {
      const hello = parse(HelloParams, params, method);
      if (hello.protocol !== PROTOCOL_VERSION) {
        throw new RpcFailure(RpcCodes.invalidRequest, {
          code: 'bad_argument',
          message: `The app speaks control-channel protocol ${PROTOCOL_VERSION}; the client asked for ${hello.protocol}.`,
          remediation: 'Use an effectcraft-cli of the same version for the app and the MCP bridge.',
        });
      }
      greeted = true;
      const result: HelloResult = { protocol: PROTOCOL_VERSION, ...identity };
      return result;
    }
    if (!greeted) {
      throw new RpcFailure(RpcCodes.invalidRequest, {
        code: 'bad_argument',
        message: `${method} was sent before hello.`,
        remediation: 'Send hello {protocol: 1} first.',
      });
    }
    switch (method) {
      case Methods.execute: {
        const p = parse(ExecuteParams, params, method);
        const r = await engine.execute(p.id, p.params, {
          signal,
          onProgress: (info) => scope.notify(Events.progress, { command: p.id, ...info }),
        });
        if (!r.ok) throw appError(r.error);
        const out: ExecuteWireResult = r.warnings
          ? { result: r.result, warnings: r.warnings }
          : { result: r.result };
        return out;
      }
      case Methods.list:
        return engine.list(parse(ListParams, params, method));
      case Methods.view: {
        const v = engine.view;
        return { doc: v.doc, projectPath: v.projectPath, canUndo: v.canUndo, canRedo: v.canRedo };
      }
      case Methods.batch:
        return runBatch(engine, parse(BatchParams, params, method), scope.groupLock);
      case Methods.beginGroup: {
        const p = parse(BeginGroupParams, params, method);
        if (group) {
          throw appError({
            code: 'bad_argument',
            message: 'This connection already has a group open.',
            remediation: 'End it with engine.endGroup before beginning another.',
          });
        }
        const id = `g${++groupSeq}`;
        const opened = await openGroup(
          engine,
          p.label,
          scope.groupLock,
          scope.groupTimeoutMs ?? Timeouts.groupMs,
          () => {
            // A group rolled back by its timeout is gone: endGroup then answers not_found.
            if (group?.id === id) group = null;
          },
        );
        group = { id, ...opened };
        return { groupId: id };
      }
      case Methods.endGroup: {
        const p = parse(EndGroupParams, params, method);
        if (!group || group.id !== p.groupId) {
          throw appError({
            code: 'not_found',
            message: `No open group "${p.groupId}" (it may have timed out and been rolled back).`,
            remediation: 'Check the document state, then run the steps again.',
          });
        }
        const g = group;
        group = null;
        return { committed: await g.end(p.commit) };
      }
      default:
        if (method.startsWith(UI_PREFIX)) {
          // The headless app has no windows to click: say so plainly rather than pretend.
          if (!identity.capabilities.ui) {
            throw appError({
              code: 'not_configured',
              message: `${method}: this app has no UI (it is the headless effectcraft-cli app).`,
              remediation: 'Use engine commands instead; UI tools need the EffectCraft desktop app.',
            });
          }
        }
        throw new RpcFailure(RpcCodes.methodNotFound, {
          code: 'unknown_command',
          message: `Unknown control-channel method "${method}".`,
          remediation: 'See docs/control-channel.md for the methods a host answers.',
        });
    }
  }

  return {
    handle,
    /** Rolls back a group the peer left open. */
    async dispose(): Promise<void> {
      const g = group;
      group = null;
      if (g) await g.end(false);
    },
  };
}

/**
 * Opens an engine group that stays open until `end` is called (or the timeout rolls it back).
 * Groups from different connections are serialised by the lock so their undo steps do not interleave.
 */
async function openGroup(
  engine: Engine,
  label: string,
  lock: GroupLock,
  timeoutMs: number,
  onSettled: () => void,
): Promise<{ end(commit: boolean): Promise<boolean> }> {
  const release = await lock.acquire();
  let finish!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (finish = resolve));
  const timer = setTimeout(() => finish(false), timeoutMs);
  timer.unref();
  const done = engine
    .group(label, () => decided)
    .finally(() => {
      clearTimeout(timer);
      release();
      onSettled();
    });
  return {
    end(commit) {
      finish(commit);
      return done;
    },
  };
}

async function runBatch(
  engine: Engine,
  p: z.infer<typeof BatchParams>,
  lock: GroupLock,
): Promise<BatchWireResult> {
  const steps: BatchWireResult['steps'] = [];
  const release = await lock.acquire();
  try {
    const ok = await engine.group(
      p.label ?? 'Batch',
      async () => {
        for (const step of p.steps) {
          const r = await engine.execute(step.id, step.params);
          steps.push(
            r.ok ? { id: step.id, ok: true, result: r.result } : { id: step.id, ok: false, error: r.error },
          );
          if (!r.ok) return false;
        }
        return true;
      },
      p.atomic ?? true,
    );
    return { ok, steps };
  } finally {
    release();
  }
}
