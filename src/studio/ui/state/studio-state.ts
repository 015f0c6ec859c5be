/**
 * Everything the page shows, in one immutable object. The document part is a copy of the app's (from
 * session.view, never edited here); the rest is this page's own view state (playhead, zoom, selection).
 */
import type { ActivityEntry } from '../../protocol.js';
import type { Project } from '../../../engine/model.js';

export type ViewerZoom = 'fit' | 0.5 | 1 | 2;
export type ViewerResolution = 'auto' | 'full' | 'half' | 'quarter';
/**
 * `ended`: the app no longer knows this page's session (it was restarted, or quit and started again): the page
 * cannot reconnect and says to open a fresh link, instead of "closed" and a wait that never ends.
 */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'ended';
/**
 * The transport's sound: off (the person turned it off), stopped (not playing), loading (its mix on the way),
 * playing, silent (nothing in the composition is heard), failed (the mix could not be had; a toast says why).
 */
export type SoundState = 'off' | 'stopped' | 'loading' | 'playing' | 'silent' | 'failed';

/** A render queue item as renderQueue.list answers it. */
export interface QueueItem {
  id: string;
  comp: string;
  output: string;
  format: string;
  status: string;
  framesDone: number;
  framesTotal: number;
  files?: number;
  error?: { code: string; message: string; remediation?: string };
  /** What the ended render said besides its files (a mix that is silence, footage left unchecked). */
  warnings?: string[];
}

export interface Toast {
  id: number;
  message: string;
  remediation?: string;
  code?: string;
  /** A command that worked but warned (shown in amber); an error otherwise. */
  warning?: true;
  /** The engine's own words, when the toast says it in a person's (shown as its tooltip). */
  detail?: string;
}

/** The part of the timeline that plays and loops, in frames (inclusive); null = the whole composition. */
export interface WorkArea {
  start: number;
  end: number;
}

export interface StudioState {
  connection: ConnectionState;
  /** This page's id as the app knows it ("page_2"). */
  pageId: string;
  /** How this page's own edits appear in the activity log. */
  actorName: string;
  appName: string;
  /** Blend modes from the command catalog's schema of layer.setBlendMode (the engine's list, not a copy). */
  blendModes: readonly string[];
  doc: Project | null;
  /** Footage items whose file is not there (the Project panel marks them; relink there). */
  missingFootage: readonly string[];
  /**
   * Video footage whose file is there but is no longer the clip it was imported as (re-exported at another
   * size...), by id: what changed. Marked "changed" in the Project panel, with Relink (footage.relink probes
   * the file again).
   */
  changedFootage: Readonly<Record<string, string>>;
  revision: number;
  projectPath: string | null;
  /** Edits not in the project's file: the Project panel says so, and Open asks before it drops them. */
  unsaved: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** The selected layer's id (in the active composition). */
  selection: string | null;
  frame: number;
  playing: boolean;
  /** Frames painted per second while playing (0 when stopped). */
  fpsReached: number;
  /** Whether playback plays the composition's sound (the person's choice, kept in localStorage). */
  soundOn: boolean;
  sound: SoundState;
  zoom: ViewerZoom;
  resolution: ViewerResolution;
  transparencyGrid: boolean;
  safeMargins: boolean;
  /** The scale frames are requested at (from the resolution setting and the viewer's size). */
  renderScale: number;
  /** Revision and frame of the picture on the viewer canvas. */
  painted: { revision: number; frame: number; scale: number; warnings: readonly string[] } | null;
  /** Timeline zoom: 1 fits the whole composition in the panel. */
  timelineZoom: number;
  workArea: WorkArea | null;
  /** Layers whose animated properties the timeline shows. */
  expanded: readonly string[];
  /** The tab shown in the bottom-right tab group. */
  dockTab: 'Render Queue' | 'Activity';
  activity: readonly ActivityEntry[];
  queue: readonly QueueItem[];
  /** Live progress per queue item from event.renderProgress. */
  progress: Readonly<Record<string, { framesDone: number; framesTotal: number }>>;
  toasts: readonly Toast[];
}

export const initialState: StudioState = {
  connection: 'connecting',
  pageId: '',
  actorName: '',
  appName: 'EffectCraft',
  blendModes: [],
  doc: null,
  missingFootage: [],
  changedFootage: {},
  revision: 0,
  projectPath: null,
  unsaved: false,
  canUndo: false,
  canRedo: false,
  selection: null,
  frame: 0,
  playing: false,
  fpsReached: 0,
  soundOn: true,
  sound: 'stopped',
  zoom: 'fit',
  resolution: 'auto',
  transparencyGrid: false,
  safeMargins: false,
  renderScale: 0.5,
  painted: null,
  timelineZoom: 1,
  workArea: null,
  expanded: [],
  dockTab: 'Activity',
  activity: [],
  queue: [],
  progress: {},
  toasts: [],
};
