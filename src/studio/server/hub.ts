/**
 * The studio pages that are open, and which one the UI tools drive: the page focused last (a person clicking
 * into a page makes it the target), else the one opened last. UI input (click, drag, key, type, set, script)
 * is carried out by the page itself, the same way in a person's browser and in the app's own headless one;
 * the app's own browser adds what only a browser can do: a pixel-exact screenshot and a viewport size.
 */
import type { Connection } from '../../bridge/connection.js';
import type { UiDriver } from '../../bridge/host-methods.js';
import type { UiMethodName } from '../../bridge/ui-methods.js';
import type { Actor } from '../protocol.js';
import { EngineError } from '../../engine/index.js';
import type { BrowserFound, OwnedBrowser } from './headless-browser.js';
import type { UiScripts } from './ui-scripts.js';

/** How long the app waits for a page to answer a UI request. */
const PAGE_TIMEOUT_MS = 30_000;
/** Longest a UI script may run in the page. */
const SCRIPT_TIMEOUT_MS = 20_000;

export interface StudioPage {
  readonly id: string;
  readonly conn: Connection;
  readonly openedAt: number;
  focusedAt: number | null;
  /** The app's own headless page. */
  readonly owned: boolean;
  /** Who drives it with the UI tools right now (their edits are theirs): set while the page answers them. */
  drivenBy: Actor | null;
}

/** App-level actions `control` answers without a page, or with the app's own browser. */
const APP_ACTIONS = ['link', 'status', 'setViewport'] as const;
/** Actions the page answers (listed in errors and docs). */
export const PAGE_ACTIONS = [
  'focus',
  'showPanel',
  'viewerZoom',
  'screenshot',
  'layout',
  'listControls',
] as const;
/** Every action of `control`. */
const CONTROL_ACTIONS = [...PAGE_ACTIONS, ...APP_ACTIONS] as const;

export interface HubOptions {
  scripts: UiScripts;
  /** The studio's address, without a token. */
  url: () => string | null;
  link: () => string;
  browser: () => BrowserFound | null;
  owned: () => OwnedBrowser | null;
  headless: boolean;
}

export class StudioHub implements UiDriver {
  readonly #pages = new Map<string, StudioPage>();
  readonly #options: HubOptions;
  #seq = 0;

  constructor(options: HubOptions) {
    this.#options = options;
  }

  add(conn: Connection, owned: boolean): StudioPage {
    const page: StudioPage = {
      id: `page_${++this.#seq}`,
      conn,
      openedAt: Date.now(),
      focusedAt: null,
      owned,
      drivenBy: null,
    };
    this.#pages.set(page.id, page);
    conn.once('close', () => this.#pages.delete(page.id));
    return page;
  }

  focus(page: StudioPage): void {
    page.focusedAt = Date.now();
  }

  get size(): number {
    return this.#pages.size;
  }

  /** The page the UI tools drive now, or null. */
  target(): StudioPage | null {
    let best: StudioPage | null = null;
    for (const p of this.#pages.values()) {
      if (p.conn.state !== 'open') continue;
      const key = (q: StudioPage) => [q.focusedAt ?? -1, q.openedAt] as const;
      if (!best || key(p)[0] > key(best)[0] || (key(p)[0] === key(best)[0] && key(p)[1] >= key(best)[1]))
        best = p;
    }
    return best;
  }

  link(): string {
    return this.#options.link();
  }

  status() {
    const target = this.target();
    const browser = this.#options.browser();
    return {
      served: true,
      url: this.#options.url(),
      pages: this.#pages.size,
      driving: target
        ? {
            pageId: target.id,
            headless: target.owned,
            focusedAt: target.focusedAt ? new Date(target.focusedAt).toISOString() : null,
          }
        : null,
      headless: this.#options.owned() !== null,
      browser,
      ...(!target && { remediation: noPageRemedy(this.#options.url()) }),
    };
  }

  async call(method: UiMethodName, params: unknown, _signal: AbortSignal, caller?: Actor): Promise<unknown> {
    const p = params as Record<string, unknown>;
    if (method === 'ui.control' && (APP_ACTIONS as readonly string[]).includes(p.action as string))
      return this.#appAction(
        p.action as (typeof APP_ACTIONS)[number],
        (p.params ?? {}) as Record<string, unknown>,
      );
    // Refused here, not by the page: the page knows only its own actions (an unknown one listed them without
    // link, status and setViewport), and with no page open it would be told to open one.
    if (method === 'ui.control' && !(CONTROL_ACTIONS as readonly string[]).includes(p.action as string))
      throw new EngineError(
        'bad_argument',
        `Unknown control action "${String(p.action)}".`,
        `Actions: ${CONTROL_ACTIONS.join(', ')}.`,
      );
    const page = this.#requireTarget(method);
    // The commands the page runs while it answers are the caller's edits (the Activity panel names the agent).
    const before = page.drivenBy;
    if (caller) page.drivenBy = caller;
    try {
      return await this.#forward(page, method, params);
    } finally {
      page.drivenBy = before;
    }
  }

  async #forward(page: StudioPage, method: UiMethodName, params: unknown): Promise<unknown> {
    const p = params as Record<string, unknown>;
    switch (method) {
      case 'ui.click':
        return { page: page.id, ...(await this.#ask(page, 'page.click', params)) };
      case 'ui.drag':
        return { page: page.id, ...(await this.#ask(page, 'page.drag', params)) };
      case 'ui.key':
        return { page: page.id, ...(await this.#ask(page, 'page.key', params)) };
      case 'ui.type':
        return { page: page.id, ...(await this.#ask(page, 'page.type', params)) };
      case 'ui.set':
        return { page: page.id, ...(await this.#ask(page, 'page.set', params)) };
      case 'ui.script':
        return { page: page.id, ...(await this.#script(page, p.code as string)) };
      case 'ui.control':
        return this.#pageAction(page, p.action as string, (p.params ?? {}) as Record<string, unknown>);
    }
  }

  async #pageAction(page: StudioPage, action: string, params: Record<string, unknown>): Promise<unknown> {
    const owned = page.owned ? this.#options.owned() : null;
    if (action === 'screenshot' && owned) {
      // The app's own browser takes the real pixels; a person's browser draws the page itself (page.control).
      // Either way the page first waits until its viewer shows the document as it is now (bounded).
      const viewer = await this.#ask(page, 'page.settle', {});
      const png = await owned.screenshot();
      const size = owned.page.viewportSize();
      return {
        page: page.id,
        png: png.toString('base64'),
        width: size?.width,
        height: size?.height,
        source: 'browser',
        viewer,
      };
    }
    if (action === 'focus' && owned) await owned.page.bringToFront();
    const answer = await this.#ask(page, 'page.control', { action, params });
    if (action === 'focus') this.focus(page);
    return typeof answer === 'object' && answer !== null && !Array.isArray(answer)
      ? { page: page.id, ...answer }
      : { page: page.id, result: answer };
  }

  async #appAction(action: (typeof APP_ACTIONS)[number], params: Record<string, unknown>): Promise<unknown> {
    if (action === 'link') return { url: this.link() };
    if (action === 'status') return this.status();
    const owned = this.#options.owned();
    const width = Number(params.width);
    const height = Number(params.height);
    if (
      !Number.isInteger(width) ||
      !Number.isInteger(height) ||
      width < 320 ||
      height < 240 ||
      width > 7680 ||
      height > 4320
    )
      throw new EngineError(
        'bad_argument',
        'setViewport needs integer params.width (320-7680) and params.height (240-4320).',
        'Pass e.g. {"action": "setViewport", "params": {"width": 1600, "height": 1000}}.',
      );
    if (!owned)
      throw new EngineError(
        'not_configured',
        "setViewport resizes the app's own headless studio; a person's browser window cannot be resized by the app.",
        'Start the app with --studio-headless, or ask the person to resize their window.',
      );
    await owned.setViewport(width, height);
    return { width, height };
  }

  async #script(page: StudioPage, code: string): Promise<Record<string, unknown>> {
    const staged = this.#options.scripts.stage(code);
    try {
      return await this.#ask(
        page,
        'page.script',
        { ...staged, timeoutMs: SCRIPT_TIMEOUT_MS },
        SCRIPT_TIMEOUT_MS + 5000,
      );
    } finally {
      this.#options.scripts.drop(staged.id);
    }
  }

  async #ask(
    page: StudioPage,
    method: string,
    params: unknown,
    timeoutMs = PAGE_TIMEOUT_MS,
  ): Promise<Record<string, unknown>> {
    const started = Date.now();
    try {
      return (await page.conn.request(method, params, timeoutMs)) as Record<string, unknown>;
    } catch (error) {
      // The connection speaks of "the app" and tells to check the document; the silent one here is a page, and
      // most likely its thread is stuck (a script_ui loop that never awaits): its socket still answers pings, so
      // it stays the driven page, and every UI tool would wait this long again.
      if (error instanceof EngineError && error.code === 'timeout' && Date.now() - started >= timeoutMs)
        throw new EngineError(
          'timeout',
          `Studio page ${page.id} did not answer ${method} within ${Math.round(timeoutMs / 1000)} s: it is frozen or busy (a script_ui that never awaits, such as while (true) {}, blocks its page for good).`,
          'Reload that browser tab, or close it (the UI tools then drive another page: control {"action": "status"}); give script loops an await.',
        );
      throw error;
    }
  }

  #requireTarget(method: string): StudioPage {
    const page = this.target();
    if (page) return page;
    throw new EngineError(
      'not_configured',
      `${method}: no studio page is open to drive.`,
      noPageRemedy(this.#options.url()),
    );
  }
}

function noPageRemedy(url: string | null): string {
  const where = url ? ` (${url}; a fresh link: control {"action": "link"})` : '';
  return `Open the studio URL in a browser${where}, or start the app with --studio-headless.`;
}
