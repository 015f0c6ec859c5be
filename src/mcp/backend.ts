/**
 * What the MCP tools talk to. Headless mode uses the local engine; bridge mode (`mcp --bridge PORT`)
 * forwards to a running app over the control channel. Tools never know which.
 */
import type { ConfinementInfo } from '../confinement/types.js';
import type { ResultOf } from '../bridge/methods.js';
import type {
  CatalogEntry,
  CommandTraits,
  ExecuteOptions,
  ExecuteResult,
  GroupResult,
  ListOptions,
} from '../engine/index.js';

/** How a group's function runs its steps: each is a step of that group. */
export interface GroupSteps {
  execute(id: string, params: unknown): Promise<ExecuteResult>;
}

export interface Backend {
  readonly kind: 'headless' | 'bridge';
  /** Runs an engine command. Bridge backends ignore onProgress/signal (bridge calls stay polling). */
  execute(id: string, params: unknown, options?: ExecuteOptions): Promise<ExecuteResult>;
  list(options: ListOptions): Promise<CatalogEntry[]>;
  /** A command's traits from the catalog (defaults for an id this side does not know). */
  traits(id: string): CommandTraits;
  /** UI-driving calls (ui_click, …): forwarded in bridge mode; headless answers not_configured. */
  ui(method: string, params: unknown): Promise<ExecuteResult>;
  /**
   * Runs `fn` as one group in the engine that owns the document: the steps it runs through `steps.execute`
   * are one undo step, rolled back when `fn` returns false or throws. The group holds the engine's edit order,
   * so other callers' edits wait (bounded) instead of landing inside it; not ok when it could not begin (busy).
   */
  group(label: string, fn: (steps: GroupSteps) => Promise<boolean>): Promise<GroupResult>;
  close(): Promise<void>;
  /**
   * Bridge mode: the `confinement` that doc_inspect and capabilities report, given this process's own roots
   * (both layers, since the app may be confined too). Absent in headless mode: `local` is the whole story.
   */
  describeConfinement?(local: ConfinementInfo): Promise<ConfinementInfo>;
  /** Bridge mode: the app's studio (pages open, which one the UI tools drive, the browser found). */
  uiStatus?(): Promise<UiStatus>;
  /** Headless: whether a render job runs now (a second render is then refused, render_in_progress). */
  rendering?(): boolean;
}

/** What studio.status answers (src/bridge/methods.ts). */
export type UiStatus = ResultOf<'studio.status'>;
