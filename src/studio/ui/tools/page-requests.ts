/**
 * Answers the requests the app sends this page for an agent's UI tools (PageRequests in protocol.ts): one
 * handler per method, in one table. Params come from the app, which checked them; each handler still refuses
 * what it cannot act on with a coded error.
 */
import type { PageRequests } from '../../protocol.js';
import { RpcError } from '../live/rpc-error.js';
import type { Studio } from '../studio.js';
import { describeControls, findControl } from './controls.js';
import { pageControl } from './page-control.js';
import { click, drag, hitTest, key, type } from './synthetic-input.js';
import { UiScripts } from './ui-script.js';
import { viewerSettled } from './viewer-settled.js';

type Handlers = {
  [M in keyof PageRequests]: (
    params: PageRequests[M]['params'],
  ) => Promise<PageRequests[M]['result']> | PageRequests[M]['result'];
};

function handlers(studio: Studio, scripts: UiScripts): Handlers {
  return {
    'page.click': click,
    'page.drag': drag,
    'page.key': key,
    'page.type': type,
    'page.hitTest': hitTest,
    'page.set': async ({ control, value }) => {
      const found = findControl(studio, control);
      await found.set(value);
      // Read back from a fresh lookup: the control list may have changed (a new selection, a new comp).
      return { control: found.path, value: findControl(studio, found.path).get() };
    },
    'page.controls': () => ({ controls: describeControls(studio) }),
    'page.settle': (p) => viewerSettled(studio, p.timeoutMs),
    'page.script': (p) => scripts.run(p),
    'page.control': (p) => pageControl(studio, p),
  };
}

export function installPageTools(studio: Studio): void {
  const table = handlers(studio, new UiScripts(studio));
  studio.onPageRequest = async (method, params) => {
    const handler = Object.hasOwn(table, method) ? table[method as keyof Handlers] : undefined;
    if (!handler) {
      throw new RpcError({
        code: 'unknown_command',
        message: `The studio page does not answer "${method}".`,
        remediation: `It answers: ${Object.keys(table).join(', ')}.`,
      });
    }
    return (handler as (p: unknown) => unknown)(params ?? {});
  };
}
