/**
 * The contract between the studio page (src/studio/ui, runs in the browser) and the app that serves it
 * (src/studio/server). Types and constants only, no runtime dependencies: the page bundle imports this file too.
 *
 * Transport: the page's live channel is a WebSocket at LIVE_PATH speaking the control channel's JSON-RPC 2.0
 * (docs/control-channel.md): the page sends `hello {protocol: 1, client: 'studio'}` first, then any control
 * channel method (engine.execute, engine.list, engine.batch, engine.beginGroup/endGroup, session.view) plus the
 * PAGE_TO_APP methods below. The app sends the events below, and PAGE_REQUESTS to the page the UI tools drive.
 * Frames come over plain HTTP (FRAME_PATH), as raw pixels; the transport's sound too (SOUND_PATH), as a WAV.
 */

/** Where the page's live channel is served (same origin as the page). */
export const LIVE_PATH = '/studio/live';
/** GET FRAME_PATH?comp=ID&frame=N&scale=S[&transparent=1] -> raw RGBA, see FrameHeaders. */
export const FRAME_PATH = '/studio/frame';
/**
 * GET SOUND_PATH?comp=ID -> the composition's whole sound (every audible layer, as a render mixes it) as a
 * 48 kHz 16-bit stereo WAV, with an ETag naming what it is mixed from: asked with If-None-Match, 304 while the
 * sound is unchanged. 204 when nothing in the composition is heard. Warnings (a file whose sound is left out:
 * missing, or changed since its import) in SOUND_WARNINGS_HEADER: URI-encoded JSON, a list of {code, message}.
 */
export const SOUND_PATH = '/studio/sound';
export const SOUND_WARNINGS_HEADER = 'x-sound-warnings';
/** GET SCRIPT_PATH/<id>.js: a UI script the app staged for the page (served once). */
export const SCRIPT_PATH = '/studio/script';
/** The global a staged UI script calls: `window[SCRIPT_GLOBAL](id, async (studio) => { ...code })`. */
export const SCRIPT_GLOBAL = '__effectcraftUiScript';
/** The session cookie the one-time token is exchanged for. */
export const SESSION_COOKIE = 'effectcraft_studio';

/**
 * Response headers of FRAME_PATH. The body is width*height*4 bytes of straight-alpha (not premultiplied) RGBA,
 * row-major, ready for `new ImageData(...)`. Errors answer 4xx/5xx with a JSON ErrorBody.
 */
export const FrameHeaders = {
  width: 'x-frame-width',
  height: 'x-frame-height',
  /** The document revision the frame was drawn from. */
  revision: 'x-doc-revision',
  /** Milliseconds the compositor took. */
  renderMs: 'x-render-ms',
  /** JSON array of warning strings (missing footage...), URI-encoded. */
  warnings: 'x-frame-warnings',
} as const;

export interface ErrorBody {
  code: string;
  message: string;
  remediation: string;
}

/** Who made a change, as the Activity panel shows it. */
export interface Actor {
  /** agent: an MCP client through `mcp --bridge`; page: a studio page; pipeline: another control-channel client; app: the app itself. */
  kind: 'agent' | 'page' | 'pipeline' | 'app';
  /** e.g. "effectcraft-cli mcp (claude-code)", "studio page 2". */
  name: string;
}

/** One command applied to the session (or refused), newest has the highest seq. */
export interface ActivityEntry {
  seq: number;
  /** ISO time. */
  at: string;
  actor: Actor;
  /** Command id, e.g. "layer.addText". */
  command: string;
  /** Undo label or command title, e.g. "New Text Layer". */
  title: string;
  ok: boolean;
  /**
   * How many calls this entry stands for: the steps of one group (a slider drag sends one command per move) are
   * one entry, sent again with the same seq and a higher count as the drag goes on. Pages replace by seq.
   */
  count: number;
  /** One short line about the result (e.g. "layer_3 \"Title\"") when ok. */
  summary?: string;
  error?: ErrorBody;
}

/** session.view's answer on the live channel also carries the revision. */
export interface LiveView {
  doc: unknown;
  projectPath: string | null;
  canUndo: boolean;
  canRedo: boolean;
  /** The document differs from its file (engine SessionView.unsaved). */
  unsaved: boolean;
  /** Increases by one at every document change; a frame or view with a lower revision is stale. */
  revision: number;
}

/** Methods the page calls on the app, besides the control channel's own. */
export interface PageToApp {
  /** The page got focus (window focus or a pointer down): the UI tools now drive it. */
  'studio.focus': { params: Record<string, never>; result: { target: true } };
  /** The activity log, newest first (at most `limit`, default 200). */
  'studio.activity': { params: { limit?: number }; result: { entries: ActivityEntry[] } };
  /** Facts the page shows: the app's name, version, confinement, this page's id. */
  'studio.info': {
    params: Record<string, never>;
    /** `actor`: how this page's own edits appear in the activity log. */
    result: { app: string; version: string; pageId: string; actor: Actor; confined: boolean };
  };
  /**
   * Footage items whose file is not there now (`ids`, looked up through the app's confined ports), and video
   * footage whose file is there but is no longer the clip it was imported as (`changed`: re-exported at another
   * size, length or rate; `change` says how, in the engine's words). Both are offered a relink.
   */
  'studio.missingFootage': {
    params: Record<string, never>;
    result: { ids: string[]; changed: Array<{ id: string; change: string }> };
  };
}

/** Events the app sends every page (notifications, no reply). */
export interface AppEvents {
  'event.documentChanged': { label: string; revision: number };
  /** The project was written to its file by anyone (no new revision): "unsaved changes" is over. */
  'event.projectSaved': { path: string; revision: number };
  'event.renderProgress': {
    itemId: string;
    framesDone: number;
    framesTotal: number;
    itemsDone: number;
    itemsTotal: number;
    /** Set on the event sent when the item ended. */
    status?: 'done' | 'failed' | 'stopped';
  };
  'event.activity': { entry: ActivityEntry };
  /** Progress of the page's own long commands. */
  'event.progress': { command: string; progress: number; total?: number; message?: string };
}

export type Point = { x: number; y: number };
export type Modifier = 'shift' | 'ctrl' | 'alt' | 'meta';

/** What an action hit, so an agent can act without seeing pixels. */
export interface Hit {
  /** ARIA role or the tag's implicit role (button, slider, textbox, row, canvas...). */
  role: string;
  /** Accessible label: aria-label, the label's text, or the element's text (trimmed, at most 80 chars). */
  label: string;
  /** Control path when the element is a named control (see docs/studio.md), else absent. */
  control?: string;
  tag: string;
}

/** A named control the UI tools can set, as `page.controls` lists it. */
export interface ControlInfo {
  path: string;
  /** number, boolean, string, enum, color, vec2 */
  type: string;
  value: unknown;
  unit?: string;
  min?: number;
  max?: number;
  options?: string[];
}

/** Requests the app sends to the page the UI tools drive; the page answers (or errors with ErrorBody data). */
export interface PageRequests {
  'page.click': {
    params: Point & { button?: 'left' | 'right' | 'middle'; count?: number; modifiers?: Modifier[] };
    result: { hit: Hit | null };
  };
  'page.drag': {
    params: { from: Point; to: Point; button?: 'left' | 'right' | 'middle'; modifiers?: Modifier[] };
    result: { from: Hit | null; to: Hit | null };
  };
  'page.key': { params: { key: string; modifiers?: Modifier[] }; result: { target: Hit | null } };
  'page.type': { params: { text: string }; result: { target: Hit | null; value?: string } };
  /** Describes the element at a point (used when the app's own browser does the input). */
  'page.hitTest': { params: Point; result: { hit: Hit | null } };
  /** Sets a named control the way a person would; answers the value read back. */
  'page.set': { params: { control: string; value: unknown }; result: { control: string; value: unknown } };
  'page.controls': { params: Record<string, never>; result: { controls: ControlInfo[] } };
  /** Loads `url` (a staged UI script) and answers what its function returned (JSON-safe). */
  'page.script': { params: { id: string; url: string; timeoutMs: number }; result: { value: unknown } };
  /**
   * Waits (bounded) until the viewer shows the app's current revision at the playhead, before a screenshot;
   * `note` says what it shows when it could not settle.
   */
  'page.settle': {
    params: { timeoutMs?: number };
    result: { settled: boolean; revision: number; frame: number; note?: string };
  };
  /** App-level actions the page does itself: focus, showPanel, viewerZoom, screenshot, listControls. */
  'page.control': { params: { action: string; params?: Record<string, unknown> }; result: unknown };
}

/** The panels, as `control {action: "showPanel", params: {panel}}` names them. */
export const PANELS = [
  'Viewer',
  'Transport',
  'Timeline',
  'Layers',
  'Properties',
  'Project',
  'Render Queue',
  'Activity',
] as const;
export type PanelName = (typeof PANELS)[number];

/** Viewer zoom levels: fit the panel, or a fixed scale of the composition. */
export const VIEWER_ZOOMS = ['fit', 0.5, 1, 2] as const;
