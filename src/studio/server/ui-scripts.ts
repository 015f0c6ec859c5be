/**
 * script_ui without eval: the page's Content-Security-Policy allows scripts from its own origin only, so the
 * app stages the agent's code as a one-shot script at SCRIPT_PATH/<id>.js, the page loads it with a <script>
 * element, and the script hands its function to the page. Code that does not parse is refused here, before any
 * page sees it, with the parser's message.
 */
import { randomBytes } from 'node:crypto';
import { Script } from 'node:vm';
import { EngineError } from '../../engine/index.js';
import { SCRIPT_GLOBAL, SCRIPT_PATH } from '../protocol.js';

/** A staged script not fetched within this time is dropped. */
const STAGED_TTL_MS = 60_000;

export class UiScripts {
  readonly #staged = new Map<string, { body: string; timer: NodeJS.Timeout }>();

  /** Checks the code parses and stages it; returns its id and the URL path the page loads. */
  stage(code: string): { id: string; url: string } {
    const id = randomBytes(16).toString('hex');
    const body = `window[${JSON.stringify(SCRIPT_GLOBAL)}](${JSON.stringify(id)}, async (studio) => {\n${code}\n});\n`;
    try {
      // Compiled, never run, in Node: only to report a syntax error with its message before a page is involved.
      new Script(body, { filename: 'script_ui.js' });
    } catch (err) {
      throw new EngineError(
        'bad_argument',
        `script_ui: the code does not parse: ${(err as Error).message}.`,
        'Fix the syntax. The code is the body of an async function of `studio`; `return` a JSON value to get it back.',
      );
    }
    const timer = setTimeout(() => this.#staged.delete(id), STAGED_TTL_MS);
    timer.unref();
    this.#staged.set(id, { body, timer });
    return { id, url: `${SCRIPT_PATH}/${id}.js` };
  }

  /** The script body for a URL path, once; null when unknown or already fetched. */
  take(pathname: string): string | null {
    const m = new RegExp(`^${SCRIPT_PATH}/([0-9a-f]{32})\\.js$`).exec(pathname);
    const staged = m ? this.#staged.get(m[1]!) : undefined;
    if (!staged) return null;
    clearTimeout(staged.timer);
    this.#staged.delete(m![1]!);
    return staged.body;
  }

  /** Drops a staged script the page never fetched (it failed or timed out). */
  drop(id: string): void {
    const staged = this.#staged.get(id);
    if (staged) clearTimeout(staged.timer);
    this.#staged.delete(id);
  }
}
