/**
 * UI scripts: the app stages a script at a same-origin URL (the CSP allows 'self' scripts only, and the page
 * never evaluates strings), the page appends a <script src>, and the script hands its function over by calling
 * `window[SCRIPT_GLOBAL](id, fn)`. The page runs `await fn(studio)` with the request's timeout and answers its
 * JSON-safe value. `studio` is the scripting API documented in docs/studio.md.
 */
import { PANELS, SCRIPT_GLOBAL, type PanelName } from '../../protocol.js';
import { RpcError } from '../live/rpc-error.js';
import type { Studio } from '../studio.js';
import { describeControls, findControl } from './controls.js';
import { showPanel } from './page-control.js';

type ScriptFn = (studio: ScriptApi) => unknown;
type Register = (id: string, fn: ScriptFn) => void;

export interface ScriptApi {
  readonly state: Record<string, unknown>;
  run(commandId: string, params?: Record<string, unknown>): Promise<unknown>;
  set(path: string, value: unknown): Promise<unknown>;
  get(path: string): unknown;
  controls(): unknown[];
  select(layerIdOrName: string): Promise<unknown>;
  seek(frame: number): Promise<unknown>;
  play(): void;
  pause(): void;
  showPanel(name: string): Promise<unknown>;
}

export function scriptApi(studio: Studio): ScriptApi {
  const set = async (path: string, value: unknown) => {
    const control = findControl(studio, path);
    await control.set(value);
    return findControl(studio, control.path).get();
  };
  return {
    get state() {
      const s = studio.store.state;
      return {
        doc: s.doc,
        revision: s.revision,
        activeComp: s.doc?.activeComp ?? null,
        selection: s.selection,
        frame: s.frame,
        playing: s.playing,
        zoom: s.zoom,
        panels: PANELS.map((name) => ({ name, visible: isVisible(name) })),
      };
    },
    async run(commandId, params = {}) {
      const result = await studio.commands.run(commandId, params);
      await studio.refreshView();
      return result;
    },
    set,
    get: (path) => findControl(studio, path).get(),
    controls: () => describeControls(studio),
    select: (layer) => set('Layers/selected', layer),
    seek: (frame) => set('Transport/frame', frame),
    play: () => studio.player.play(),
    pause: () => studio.player.pause(),
    showPanel: (name) => showPanel(studio, name),
  };
}

function isVisible(name: PanelName): boolean {
  const el = document.querySelector(`[data-panel="${name}"]`);
  return !!el && el.getClientRects().length > 0;
}

function fail(code: string, message: string, remediation: string): RpcError {
  return new RpcError({ code, message, remediation });
}

/** Loads staged scripts and runs them; owns the global they register with. */
export class UiScripts {
  readonly #studio: Studio;
  /** Scripts loaded but not yet registered, by id. */
  readonly #waiting = new Map<string, (fn: ScriptFn) => void>();

  constructor(studio: Studio) {
    this.#studio = studio;
    const register: Register = (id, fn) => this.#waiting.get(id)?.(fn);
    (window as unknown as Record<string, Register>)[SCRIPT_GLOBAL] = register;
  }

  /** Loads the staged script and waits for it to register its function. */
  #load(id: string, url: string, timeoutMs: number): Promise<ScriptFn> {
    const src = new URL(url, location.href);
    // Security: only the app's own staged scripts; the CSP would refuse others too, but say why plainly.
    if (src.origin !== location.origin) {
      return Promise.reject(
        fail(
          'bad_argument',
          `Script URL ${url} is not on this page's origin.`,
          'Stage the script with the app (ui.script).',
        ),
      );
    }
    return new Promise<ScriptFn>((resolve, reject) => {
      const el = document.createElement('script');
      const done = () => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        el.remove();
      };
      const timer = window.setTimeout(() => {
        done();
        reject(
          fail(
            'timeout',
            `Script ${id} did not load within ${timeoutMs} ms.`,
            'Check the app staged it, then retry.',
          ),
        );
      }, timeoutMs);
      this.#waiting.set(id, (fn) => {
        done();
        resolve(fn);
      });
      el.onerror = () => {
        done();
        reject(
          fail(
            'script_error',
            `Script ${id} could not be loaded from ${src.pathname}.`,
            'Stage it again (a staged script is served once).',
          ),
        );
      };
      el.src = src.href;
      document.head.appendChild(el);
    });
  }

  /** Runs the staged script `p.id` within `p.timeoutMs` (loading included) and answers its JSON-safe value. */
  async run(p: { id: string; url: string; timeoutMs: number }): Promise<{ value: unknown }> {
    const timeoutMs = Math.max(100, Math.min(600_000, p.timeoutMs || 30_000));
    const started = performance.now();
    const fn = await this.#load(p.id, p.url, timeoutMs);
    let timer = 0;
    const remaining = Math.max(1, timeoutMs - (performance.now() - started));
    const timeout = new Promise<never>((_, reject) => {
      timer = window.setTimeout(
        () =>
          reject(
            fail(
              'timeout',
              `Script ${p.id} ran longer than ${timeoutMs} ms.`,
              // script_ui takes only {code}: its limit is the app's, so the remedy cannot be a longer one.
              `A UI script has ${timeoutMs / 1000} s: split the work over several script_ui calls, or make ` +
                'document edits with run_script (timeout_ms up to 10 minutes).',
            ),
          ),
        remaining,
      );
    });
    try {
      const value = await Promise.race([Promise.resolve().then(() => fn(scriptApi(this.#studio))), timeout]);
      return { value: jsonSafe(value) };
    } catch (error) {
      if (error instanceof RpcError && error.code === 'timeout') throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw fail('script_error', `Script ${p.id} failed: ${message}`, 'Fix the script and run it again.');
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The value as JSON would carry it (undefined -> null; functions and cycles refused plainly). */
function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch (error) {
    throw fail(
      'script_error',
      `The script's result is not JSON: ${(error as Error).message}`,
      'Return plain data.',
    );
  }
}
