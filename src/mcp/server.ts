/**
 * The MCP server factory: one McpServer per connection (or per HTTP request) over a shared Backend.
 * Cheap and side-effect free: clients start a stdio server twice to probe it, and the HTTP entry calls the
 * factory per request. Host probing (capabilities) is shared and lazy.
 */
import { McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import type { Confinement } from '../confinement/types.js';
import type { Backend } from './backend.js';
import { CallOrder } from './call-order.js';
import { CapabilityProbe } from './capabilities.js';
import { callTool, listTools, type DispatchOptions } from './dispatch.js';
import { APPS_EXTENSION, clientShowsApps } from './player/apps.js';
import { registerPlayerView } from './player/view-resource.js';
import type { RemoteNode } from './remote/remote-node.js';
import { registerResources } from './resources.js';
import { errorResult } from './results.js';
import { registerTaskMethods } from './tasks/handlers.js';
import { TaskStore } from './tasks/store.js';
import { toolTable } from './tools/index.js';
import { SERVER_NAME } from './tools/info-tools.js';
import type { ToolContext, ToolSpec } from './tools/types.js';

export interface McpServerOptions {
  /** Package version reported in serverInfo and by the capabilities tool. */
  version: string;
  confinement?: Confinement;
  /** Adds the UI tools that drive the app (bridge mode). */
  bridge?: boolean;
  /** Shared host probe; one per process. */
  capabilities?: CapabilityProbe;
  /** Diagnostics (stderr); never sent to clients. */
  log?: (message: string) => void;
  /** The process's task store (tasks extension); one per process, outliving per-request HTTP servers. */
  tasks?: TaskStore;
  /** The era this instance serves (the serving entry says); tasks exist only on 2026-07-28 instances. */
  era?: 'legacy' | 'modern';
  /** Over HTTP only: upload tools, get_output and the limit on calls in flight, one per process (docs/remote.md). */
  remote?: RemoteNode;
}

const INSTRUCTIONS = `EffectCraft: a headless motion-graphics engine (compositions, layers, keyframes, effects, render queue).
Start with doc_inspect and command_list (schemas: true for params), change things with command_run or command_batch,
look at the result with render_preview. Errors carry {code, message, remediation}.`;

/** Builds one server instance. */
export function createMcpServer(backend: Backend, options: McpServerOptions): McpServer {
  const table = toolTable({ version: options.version, bridge: options.bridge, remote: options.remote });
  const byName = new Map<string, ToolSpec>(table.map((t) => [t.name, t]));
  const dispatch: DispatchOptions = {
    backend,
    order: new CallOrder(),
    confinement: options.confinement,
    capabilities: options.capabilities ?? new CapabilityProbe(),
    log: options.log ?? (() => undefined),
    tasks: options.era === 'legacy' ? undefined : options.tasks,
  };
  const server = new McpServer(
    { name: SERVER_NAME, title: 'EffectCraft', version: options.version },
    {
      instructions: INSTRUCTIONS,
      cacheHints: {
        'tools/list': { ttlMs: 3_600_000, cacheScope: 'private' },
        'resources/list': { ttlMs: 3_600_000, cacheScope: 'private' },
      },
    },
  );
  // Our own tools handlers (see dispatch.ts); McpServer would install its own if we registered tools with it.
  server.server.registerCapabilities({ tools: { listChanged: false }, extensions: { [APPS_EXTENSION]: {} } });
  server.server.setRequestHandler('tools/list', (_request, ctx) => ({
    tools: listTools(table, clientShowsApps(ctx, server.server.getClientCapabilities())),
  }));
  const calls = options.remote?.calls;
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    // Over HTTP a remote caller may not run more than the node's limit of calls at once: busy, not queued.
    const slot = calls ? calls.tryEnter() : () => undefined;
    if (!slot) return errorResult(calls!.busy(request.params.name));
    try {
      return await callTool(byName, request, ctx, dispatch);
    } finally {
      slot();
    }
  });
  const resourceCtx = (): ToolContext => ({
    backend,
    confinement: options.confinement,
    capabilities: dispatch.capabilities,
    signal: new AbortController().signal,
    log: dispatch.log,
  });
  registerResources(server, resourceCtx);
  registerPlayerView(server, dispatch.log);
  // 2025-era clients keep today's surface exactly: no extension advertised, no tasks methods.
  if (dispatch.tasks) registerTaskMethods(server.server, dispatch.tasks);
  // McpServer advertises resources.listChanged; our two resources never change, so say so.
  server.server.registerCapabilities({ resources: { listChanged: false } });
  return server;
}

/** The factory both serving entries (stdio, HTTP) call. */
export function createServerFactory(backend: Backend, options: McpServerOptions): McpServerFactory {
  const shared = {
    ...options,
    capabilities: options.capabilities ?? new CapabilityProbe(),
    tasks: options.tasks ?? new TaskStore({ log: options.log }),
  };
  return (ctx) => createMcpServer(backend, { ...shared, era: ctx?.era });
}
