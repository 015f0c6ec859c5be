/**
 * UI-driving tools, bridge mode only: each forwards its arguments to the running app through
 * `backend.ui(name, args)`. The bridge issue adds one `uiTool(...)` entry per tool (ui_click, ui_key,
 * ui_type, ui_drag, ui_set, script_ui, control) with its strict input schema.
 */
import { z } from 'zod';
import { defineTool, fromExecute, type ToolHints, type ToolSpec } from './types.js';

const UI_HINTS: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** One UI tool: forwarded as-is, refused while confined when the confinement says so. */
export function uiTool(
  name: string,
  title: string,
  description: string,
  input: z.ZodObject,
  hints: ToolHints = UI_HINTS,
): ToolSpec {
  return defineTool({
    name,
    title,
    description,
    hints,
    input,
    async run(args, ctx) {
      const refused = ctx.confinement?.checkTool(name) ?? null;
      if (refused) return { kind: 'error', error: refused };
      return fromExecute(await ctx.backend.ui(name, args));
    },
  });
}

const Point = z.strictObject({
  x: z.number().describe('Horizontal position in window points from the left edge'),
  y: z.number().describe('Vertical position in window points from the top edge'),
});
const Modifiers = z
  .array(z.enum(['shift', 'ctrl', 'alt', 'meta']))
  .max(4)
  .optional()
  .describe('Modifier keys held during the action');
const Button = z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left)');

/** The UI tools of bridge mode. The headless app (`effectcraft-cli app`) answers each with not_configured. */
export const uiTools: ToolSpec[] = [
  uiTool(
    'ui_click',
    'Click in the App',
    'Clicks at a point of the EffectCraft app window (bridge mode; needs the desktop app).',
    z.strictObject({
      ...Point.shape,
      button: Button,
      count: z.number().int().min(1).max(3).optional().describe('1 click, 2 double-click, 3 triple-click'),
      modifiers: Modifiers,
    }),
  ),
  uiTool(
    'ui_key',
    'Press a Key in the App',
    'Presses a key (e.g. "Enter", "z", "ArrowLeft") with optional modifiers in the app window.',
    z.strictObject({ key: z.string().min(1).max(32), modifiers: Modifiers }),
  ),
  uiTool(
    'ui_type',
    'Type Text in the App',
    'Types text into the focused field of the app window.',
    z.strictObject({ text: z.string().max(10_000) }),
  ),
  uiTool(
    'ui_drag',
    'Drag in the App',
    'Drags from one point of the app window to another (timeline handles, layer order, sliders).',
    z.strictObject({ from: Point, to: Point, button: Button, modifiers: Modifiers }),
  ),
  uiTool(
    'ui_set',
    'Set a UI Control',
    'Sets a named control of the app (panel/control path, e.g. "Timeline/zoom") to a value.',
    z.strictObject({ control: z.string().min(1).max(200), value: z.unknown() }),
  ),
  uiTool(
    'script_ui',
    'Run a UI Script in the App',
    "Runs JavaScript in the app's UI scripting context (panels, selection, viewer). Refused while confined.",
    z.strictObject({ code: z.string().min(1).max(100_000) }),
  ),
  uiTool(
    'control',
    'App Control',
    'Asks the app to do an app-level action (e.g. "focus", "showPanel", "viewerZoom") with params.',
    z.strictObject({
      action: z.string().min(1).max(100),
      params: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
];
