/**
 * UI-driving tools, bridge mode only: one per UI method of the control channel (src/bridge/ui-methods.ts),
 * generated from that table, each forwarding its arguments to the running app through `backend.ui(name, args)`.
 */
import { UI_METHODS } from '../../bridge/ui-methods.js';
import { defineTool, fromExecute, imageOutcome, type ToolHints, type ToolSpec } from './types.js';

const UI_HINTS: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** The UI tools of bridge mode: they drive the studio page of the app (docs/studio.md). */
export const uiTools: ToolSpec[] = Object.values(UI_METHODS).map((method) =>
  defineTool({
    name: method.tool,
    title: method.title,
    description: method.description,
    hints: UI_HINTS,
    input: method.params,
    async run(args, ctx) {
      const refused = ctx.confinement?.checkTool(method.tool) ?? null;
      if (refused) return { kind: 'error', error: refused };
      const r = await ctx.backend.ui(method.tool, args);
      // A screenshot comes back as an image the model can look at, with its facts beside it.
      return (r.ok && imageOutcome(r.result)) || fromExecute(r);
    },
  }),
);
