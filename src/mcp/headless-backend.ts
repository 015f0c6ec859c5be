/**
 * The headless Backend: MCP tools run straight against a local Engine (`effectcraft-cli mcp`).
 * Progress and cancellation pass through to the engine; UI calls have nothing to drive.
 */
import { traitsOf, type Engine } from '../engine/index.js';
import type { Backend } from './backend.js';

/**
 * Wraps an engine (from createSession) as the Backend the MCP tools talk to; `rendering` says whether its
 * session's render queue runs a job.
 */
export function createHeadlessBackend(engine: Engine, rendering?: () => boolean): Backend {
  return {
    kind: 'headless',
    ...(rendering && { rendering }),
    execute: (id, params, options) => engine.execute(id, params, options),
    list: async (options) => engine.list(options),
    traits: (id) => traitsOf(engine.command(id)),
    ui: async (method) => ({
      ok: false,
      error: {
        code: 'not_configured',
        message: `${method} drives the EffectCraft app, and this server runs headless.`,
        remediation: 'Start the server with `effectcraft-cli mcp --bridge PORT` while the app is open.',
      },
    }),
    group: (label, fn) =>
      engine.group(label, (group) => fn({ execute: (id, params) => engine.execute(id, params, { group }) })),
    close: async () => undefined,
  };
}
