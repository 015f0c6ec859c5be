/**
 * The UI-driving methods of the control channel (`ui.click`, …): what each accepts, shared by the app host,
 * the bridge client and the MCP UI tools, which are generated from this list (tool name, title, description).
 * Adding a UI method is one entry here.
 */
import { z } from 'zod';

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

export interface UiMethod<P extends z.ZodObject = z.ZodObject> {
  /** The MCP tool that forwards to it in bridge mode. */
  tool: string;
  title: string;
  description: string;
  params: P;
  /** The app's answer is its own business (the desktop app defines it); it is passed through as is. */
  result: z.ZodUnknown;
}

const ui = <P extends z.ZodObject>(spec: Omit<UiMethod<P>, 'result'>): UiMethod<P> => ({
  ...spec,
  result: z.unknown(),
});

/** Method name -> spec. The headless app (`effectcraft-cli app`) answers each with not_configured. */
export const UI_METHODS = {
  'ui.click': ui({
    tool: 'ui_click',
    title: 'Click in the App',
    description: 'Clicks at a point of the EffectCraft app window (bridge mode; needs the desktop app).',
    params: z.strictObject({
      ...Point.shape,
      button: Button,
      count: z.number().int().min(1).max(3).optional().describe('1 click, 2 double-click, 3 triple-click'),
      modifiers: Modifiers,
    }),
  }),
  'ui.key': ui({
    tool: 'ui_key',
    title: 'Press a Key in the App',
    description: 'Presses a key (e.g. "Enter", "z", "ArrowLeft") with optional modifiers in the app window.',
    params: z.strictObject({ key: z.string().min(1).max(32), modifiers: Modifiers }),
  }),
  'ui.type': ui({
    tool: 'ui_type',
    title: 'Type Text in the App',
    description: 'Types text into the focused field of the app window.',
    params: z.strictObject({ text: z.string().max(10_000) }),
  }),
  'ui.drag': ui({
    tool: 'ui_drag',
    title: 'Drag in the App',
    description:
      'Drags from one point of the app window to another (timeline handles, layer order, sliders).',
    params: z.strictObject({ from: Point, to: Point, button: Button, modifiers: Modifiers }),
  }),
  'ui.set': ui({
    tool: 'ui_set',
    title: 'Set a UI Control',
    description: 'Sets a named control of the app (panel/control path, e.g. "Timeline/zoom") to a value.',
    params: z.strictObject({ control: z.string().min(1).max(200), value: z.unknown() }),
  }),
  'ui.script': ui({
    tool: 'script_ui',
    title: 'Run a UI Script in the App',
    description:
      "Runs JavaScript in the app's UI scripting context (panels, selection, viewer). Refused while confined.",
    params: z.strictObject({ code: z.string().min(1).max(100_000) }),
  }),
  'ui.control': ui({
    tool: 'control',
    title: 'App Control',
    description:
      'Asks the app to do an app-level action (e.g. "focus", "showPanel", "viewerZoom") with params.',
    params: z.strictObject({
      action: z.string().min(1).max(100),
      params: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
} as const;

export type UiMethodName = keyof typeof UI_METHODS;
