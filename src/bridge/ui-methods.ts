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

/** Method name -> spec. The app forwards each to the studio page it drives (src/studio/server/hub.ts). */
export const UI_METHODS = {
  'ui.click': ui({
    tool: 'ui_click',
    title: 'Click in the App',
    description:
      'Clicks at a point of the studio page the app serves (bridge mode), in CSS pixels from its top-left corner, and answers what it hit (role, label, control path). Use control {"action": "layout"} for the positions of panels and buttons. Drives the studio page focused last; with none open: not_configured with the remedy.',
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
    description:
      'Presses a key (e.g. "Enter", "Escape", " ", "ArrowLeft", "z" with modifiers ["ctrl"] for undo) on the focused element of the studio page; page shortcuts: Space play/pause, Left/Right step, Home/End, Ctrl+Z / Ctrl+Shift+Z.',
    params: z.strictObject({ key: z.string().min(1).max(32), modifiers: Modifiers }),
  }),
  'ui.type': ui({
    tool: 'ui_type',
    title: 'Type Text in the App',
    description:
      'Types text into the focused field of the studio page (click the field first) and answers its new value; press Enter with ui_key to commit it.',
    params: z.strictObject({ text: z.string().max(10_000) }),
  }),
  'ui.drag': ui({
    tool: 'ui_drag',
    title: 'Drag in the App',
    description:
      'Drags from one point of the studio page to another in CSS pixels (a layer bar or keyframe in the timeline, a layer in the layers list, a value slider, the playhead); a drag is one undo step.',
    params: z.strictObject({ from: Point, to: Point, button: Button, modifiers: Modifiers }),
  }),
  'ui.set': ui({
    tool: 'ui_set',
    title: 'Set a UI Control',
    description:
      'Sets a named control of the studio page the way a person would (same commands, one undo step) and answers the value read back. Paths: Viewer/zoom ("fit", 0.5, 1, 2), Viewer/transparencyGrid, Viewer/safeMargins, Viewer/resolution ("auto", "full", "half", "quarter"), Transport/playing, Transport/frame, Timeline/zoom, Project/activeComp, Layers/selected (id or name), Properties/Transform/{Anchor Point,Position,Scale,Rotation,Opacity} (px, %, degrees, %; of the selected layer, keyframed at the playhead when animated), Properties/Text/{Text,Font Size,Tracking,Fill Color,Stroke Color,Stroke Width}, Properties/Solid/Color, Properties/Shape/{Size,Roundness,Outer Radius,Inner Radius,Fill Color,Stroke Color,Stroke Width}, Properties/Effects/<effect title>/<param label>; Properties/* act on the selected layer (set Layers/selected first). control {"action": "listControls"} lists them with their values; docs/studio.md describes each.',
    params: z.strictObject({ control: z.string().min(1).max(200), value: z.unknown() }),
  }),
  'ui.script': ui({
    tool: 'script_ui',
    title: 'Run a UI Script in the App',
    description:
      'Runs JavaScript in the studio page as the body of an async function of `studio` (state, run(commandId, params), set(path, value), get(path), controls(), select(layer), seek(frame), play(), pause(), showPanel(name)) and answers what it returns (JSON). Refused while confined.',
    params: z.strictObject({ code: z.string().min(1).max(100_000) }),
  }),
  'ui.control': ui({
    tool: 'control',
    title: 'App Control',
    description:
      'App-level actions on the studio: "screenshot" (a PNG of the page, returned as an image), "layout" (panel and button positions), "showPanel" {panel}, "viewerZoom" {zoom}, "focus", "listControls", "setViewport" {width, height} (the app\'s own headless studio), "link" (a fresh one-time link for a person to open the studio), "status" (pages open, which is driven, browser found).',
    params: z.strictObject({
      action: z.string().min(1).max(100),
      params: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
} as const;

export type UiMethodName = keyof typeof UI_METHODS;
