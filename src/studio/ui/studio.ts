/**
 * The page's composition root: one Studio owns the store, the live channel, the command runner, the frame
 * source and the player, and wires the app's events to them. Components and UI tools receive it through
 * StudioContext; nothing is kept in module-level variables.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ActivityEntry, AppEvents, ErrorBody, LiveView, PageToApp, PanelName } from '../protocol.js';
import type { Project } from '../../engine/model.js';
import { LiveChannel } from './live/channel.js';
import { coalesced } from './live/coalesce.js';
import { Commands } from './live/commands.js';
import { FrameSource } from './live/frames.js';
import { MissingFootageWatch } from './live/missing-footage.js';
import { errorForPerson, layerGone, warningsForPerson, type Call } from './live/person-words.js';
import { Player } from './playback/player.js';
import { soundSetting } from './playback/sound.js';
import { activeComp, clampFrame, layerById } from './state/doc.js';
import { Store, useStore } from './state/store.js';
import { initialState, type QueueItem, type StudioState } from './state/studio-state.js';

const ACTIVITY_LIMIT = 200;
const TOAST_MS = 6000;
/** While an item renders, the queue is read again this often (its end sends no event of its own). */
const QUEUE_POLL_MS = 1000;

export class Studio {
  readonly store = new Store<StudioState>(initialState);
  readonly channel: LiveChannel;
  readonly commands: Commands;
  readonly frames = new FrameSource();
  readonly player: Player;
  readonly #missing: MissingFootageWatch;
  #toastId = 0;
  /** Every layer id a view has shown this page: a layer not found that was among them was deleted. */
  readonly #layersShown = new Set<string>();

  /** Fetches session.view; concurrent calls coalesce (one more run after the one in flight). */
  readonly refreshView = coalesced(async () => {
    const view = await this.channel.request<LiveView>('session.view');
    this.#applyView(view);
  });

  readonly refreshQueue = coalesced(async () => {
    const r = await this.channel.request<{ result: { items: QueueItem[] } }>('engine.execute', {
      id: 'renderQueue.list',
      // The whole queue (at most 1000 items): the panel shows every one.
      params: { limit: 1000 },
    });
    const before = this.store.state.queue;
    const items = r.result.items;
    // As After Effects does, the Render Queue comes forward when an item is added or a render starts.
    const added = items.some((i) => !before.some((b) => b.id === i.id));
    const started = items.some(
      (i) => i.status === 'rendering' && before.find((b) => b.id === i.id)?.status !== 'rendering',
    );
    this.store.update({ queue: items, ...((added || started) && { dockTab: 'Render Queue' as const }) });
    // An item's end (done, failed, stopped) sends an event of its own (event.renderProgress with status), but
    // progress reaches the last frame while the file is still being finished, and an event can be lost on a
    // reconnect. So while anything renders, the list is also read again every second, and the panel never
    // shows a finished render as running (with Stop lit, Render not).
    if (items.some((i) => i.status === 'rendering')) this.#pollQueueSoon();
  });

  #queuePoll: ReturnType<typeof setTimeout> | null = null;

  #pollQueueSoon(): void {
    if (this.#queuePoll) return;
    this.#queuePoll = setTimeout(() => {
      this.#queuePoll = null;
      void this.refreshQueue().catch(() => undefined);
    }, QUEUE_POLL_MS);
  }

  constructor() {
    this.channel = new LiveChannel({
      onEvent: (method, params) => this.#onEvent(method, params),
      onRequest: (method, params) => this.onPageRequest(method, params),
      onState: (connection) => {
        this.store.update({ connection });
        if (connection === 'open') void this.#loadAll();
      },
    });
    this.commands = new Commands(
      this.channel,
      (error, call) =>
        // Not found: most likely deleted by another editor a moment ago, which the page may not know yet.
        error.code === 'not_found' && call
          ? void this.refreshView()
              .catch(() => undefined)
              .then(() => this.toast(error, call))
          : this.toast(error, call),
      (warnings, call, result) =>
        (warningsForPerson(call, warnings, result, this.store.state.doc) ?? warnings).forEach((w, i) =>
          this.warn(w, warnings[i]),
        ),
    );
    this.#missing = new MissingFootageWatch(this.channel, ({ ids, changed }) => {
      const s = this.store.state;
      const changedFootage = Object.fromEntries(changed.map((c) => [c.id, c.change]));
      const same = (a: readonly string[], b: readonly string[]) =>
        a.length === b.length && a.every((id, i) => id === b[i]);
      if (
        same(ids, s.missingFootage) &&
        same(Object.entries(changedFootage).flat(), Object.entries(s.changedFootage).flat())
      )
        return;
      this.store.update({ missingFootage: ids, changedFootage });
      // The viewer's frames of a file now gone (or back) were drawn from what is no longer there.
      this.player.filesChanged();
    });
    this.player = new Player(this);
    this.store.update({ soundOn: soundSetting() });
  }

  /** Set by the UI tools module: answers the requests the app forwards from an agent's UI tools. */
  onPageRequest: (method: string, params: unknown) => Promise<unknown> = (method) =>
    Promise.reject(new Error(`${method}: the page is still starting`));

  start(): void {
    this.channel.connect();
  }

  /**
   * Shows an error. A command's failure that the studio can say in a person's words (person-words.ts) is said
   * so, the engine's own words kept as the toast's tooltip.
   */
  toast(error: ErrorBody, call?: Call): void {
    const id = ++this.#toastId;
    const said = call
      ? errorForPerson(call, error, {
          doc: this.store.state.doc,
          hadLayer: (id) => this.#layersShown.has(id),
        })
      : null;
    const shown = said ?? error;
    this.store.update((s) => ({
      toasts: [
        ...s.toasts.slice(-3),
        {
          id,
          code: error.code,
          message: shown.message,
          remediation: shown.remediation,
          ...(said && { detail: `${error.message} ${error.remediation}`.trim() }),
        },
      ],
    }));
    window.setTimeout(() => this.dismissToast(id), TOAST_MS);
  }

  /** A warning of a command that worked (in a person's words when person-words.ts has them; `detail`: the engine's). */
  warn(message: string, detail?: string): void {
    const id = ++this.#toastId;
    this.store.update((s) => ({
      toasts: [
        ...s.toasts.slice(-3),
        { id, message, warning: true, ...(detail && detail !== message && { detail }) },
      ],
    }));
    window.setTimeout(() => this.dismissToast(id), TOAST_MS);
  }

  /**
   * Runs a person's edit from a field that was open on a layer. Leaving a field commits what was typed, as in
   * After Effects, and a field also loses the focus when its layer goes: an agent deleting the layer while a
   * value waited for Enter sent that value to a layer that was no more. Such an edit is dropped, with a notice.
   */
  editLayer(id: string, params: Record<string, unknown>): void {
    if (layerGone(this.store.state.doc, { id, params })) {
      this.warn(
        'That layer was deleted (by the agent, or in another tab) before your change reached it: nothing was changed.',
      );
      return;
    }
    void this.commands.run(id, params).catch(() => undefined);
  }

  dismissToast(id: number): void {
    this.store.update((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  }

  /** Tells the app this page has the person's (or agent's) attention: the UI tools drive the last-focused page. */
  focus(): void {
    if (this.channel.state === 'open') void this.channel.request('studio.focus').catch(() => undefined);
  }

  // View state: the page's own, changed directly (not commands: nothing in the document changes).

  seek(frame: number): void {
    const comp = activeComp(this.store.state.doc);
    if (!comp) return;
    this.store.update({ frame: clampFrame(comp, frame) });
  }

  select(layerId: string | null): void {
    this.store.update({ selection: layerId });
  }

  showPanel(panel: PanelName): void {
    // The other panels are always on screen; only the two tabs share a place.
    if (panel === 'Render Queue' || panel === 'Activity') this.store.update({ dockTab: panel });
  }

  toggleExpanded(layerId: string): void {
    this.store.update((s) => ({
      expanded: s.expanded.includes(layerId)
        ? s.expanded.filter((id) => id !== layerId)
        : [...s.expanded, layerId],
    }));
  }

  async undo(): Promise<void> {
    await this.commands.run('edit.undo').catch(() => undefined);
  }

  async redo(): Promise<void> {
    await this.commands.run('edit.redo').catch(() => undefined);
  }

  async #loadAll(): Promise<void> {
    try {
      const [info, , activity] = await Promise.all([
        this.channel.request<PageToApp['studio.info']['result']>('studio.info'),
        this.refreshView(),
        this.channel.request<{ entries: ActivityEntry[] }>('studio.activity', { limit: ACTIVITY_LIMIT }),
      ]);
      this.store.update({
        pageId: info.pageId,
        actorName: info.actor.name,
        appName: info.app,
        activity: activity.entries,
      });
      await Promise.all([this.refreshQueue(), this.#loadBlendModes()]);
    } catch (error) {
      this.toast(error as ErrorBody);
    }
  }

  async #loadBlendModes(): Promise<void> {
    type Entry = { id: string; params?: { properties?: { mode?: { enum?: string[] } } } };
    const entries = await this.channel.request<Entry[]>('engine.list', {
      filter: 'layer.setBlendMode',
      schemas: true,
    });
    const modes = entries.find((e) => e.id === 'layer.setBlendMode')?.params?.properties?.mode?.enum;
    if (modes) this.store.update({ blendModes: modes });
  }

  #onEvent(method: string, params: unknown): void {
    switch (method) {
      case 'event.documentChanged':
        void this.refreshView().catch(() => undefined);
        void this.refreshQueue().catch(() => undefined);
        return;
      case 'event.projectSaved':
        // Same document, same revision: only the path and "unsaved" change, which the next view carries.
        void this.refreshView().catch(() => undefined);
        return;
      case 'event.activity': {
        const { entry } = params as AppEvents['event.activity'];
        this.store.update((s) => ({
          activity: [entry, ...s.activity.filter((e) => e.seq !== entry.seq)].slice(0, ACTIVITY_LIMIT),
        }));
        return;
      }
      case 'event.renderProgress': {
        const p = params as AppEvents['event.renderProgress'];
        this.store.update((s) => ({
          progress: { ...s.progress, [p.itemId]: { framesDone: p.framesDone, framesTotal: p.framesTotal } },
        }));
        // Statuses (rendering, done, failed, stopped) and errors come from renderQueue.list: refresh at the start
        // and end of each item (an end says so in status, whether or not its frames were all done).
        if (p.framesDone === 0 || p.framesDone >= p.framesTotal || p.status)
          void this.refreshQueue().catch(() => undefined);
        return;
      }
    }
  }

  #applyView(view: LiveView): void {
    const s = this.store.state;
    // A view answered before a newer one was applied is stale: never let it overwrite newer values.
    if (s.doc && view.revision < s.revision) return;
    const doc = view.doc as Project;
    for (const item of doc.items)
      if (item.type === 'composition') for (const l of item.layers) this.#layersShown.add(l.id);
    const comp = activeComp(doc);
    const selection = layerById(comp, s.selection) ? s.selection : null;
    const frame = comp ? clampFrame(comp, s.frame) : 0;
    const compChanged = comp?.id !== activeComp(s.doc)?.id;
    this.frames.cache.dropBefore(view.revision);
    this.store.update({
      doc,
      revision: view.revision,
      projectPath: view.projectPath,
      unsaved: view.unsaved,
      canUndo: view.canUndo,
      canRedo: view.canRedo,
      selection,
      frame,
      ...(compChanged && { workArea: null, expanded: [] }),
    });
    this.#missing.update(doc);
  }
}

export const StudioContext = createContext<Studio | null>(null);

export function useStudio(): Studio {
  const studio = useContext(StudioContext);
  if (!studio) throw new Error('useStudio outside StudioContext');
  return studio;
}

/** A slice of the studio state; the component re-renders when it changes. */
export function useStudioState<T>(select: (state: StudioState) => T): T {
  return useStore(useStudio().store, select);
}
