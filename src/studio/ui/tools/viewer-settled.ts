/**
 * Waits until the viewer shows the document as the app has it now: an agent's screenshot right after an edit
 * (a ui_set, a command_run) showed the frame and revision from before it, because the answer to the edit comes
 * once the page has the new document, and the viewer's frame is fetched and painted after that. The wait is
 * bounded; past it the answer says what the viewer shows instead of pretending.
 */
import type { LiveView, PageRequests } from '../../protocol.js';
import { activeComp } from '../state/doc.js';
import type { Studio } from '../studio.js';

/** Longest a screenshot waits for the viewer (a heavy frame takes a second or two; a stuck one never comes). */
export const SETTLE_MS = 5000;

export type Settled = PageRequests['page.settle']['result'];

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

export async function viewerSettled(studio: Studio, timeoutMs = SETTLE_MS): Promise<Settled> {
  const until = performance.now() + timeoutMs;
  // The app's revision now, not the page's: an agent's command_run may not have reached this page yet. A page
  // that drives the tools may still be (re)connecting its channel: waited for within the bound, and a screenshot
  // is never refused for it (it says what it could not wait for).
  let view: LiveView | null = null;
  while (!view && performance.now() < until) {
    view = await studio.channel.request<LiveView>('session.view').catch(() => null);
    if (!view) await new Promise((r) => setTimeout(r, 50));
  }
  if (!view)
    return {
      settled: false,
      revision: studio.store.state.revision,
      frame: studio.store.state.frame,
      note: `The page was not connected to the app for ${Math.round(timeoutMs / 1000)} s: the viewer shows what it had; take another screenshot in a moment.`,
    };
  await studio.refreshView();
  const target = view.revision;
  const shows = () => {
    const s = studio.store.state;
    const p = s.painted;
    if (!activeComp(s.doc)) return true;
    if (s.revision < target || !p || p.revision < target || p.scale !== s.renderScale) return false;
    // Playing: any frame of this revision is the picture of the moment.
    return s.playing || p.frame === s.frame;
  };
  while (!shows() && performance.now() < until) await nextFrame();
  // One more frame: what was painted in this task is on screen (and in the browser's own screenshot).
  await nextFrame();
  const s = studio.store.state;
  const answer = { revision: target, frame: s.frame };
  if (shows()) return { settled: true, ...answer };
  const p = s.painted;
  return {
    settled: false,
    ...answer,
    note: `The viewer had not drawn revision ${target} at frame ${s.frame} after ${Math.round(timeoutMs / 1000)} s: it shows ${p ? `revision ${p.revision}, frame ${p.frame}` : 'no frame yet'}. The frame may be slow to draw or failing (see the page's toasts); take another screenshot in a moment.`,
  };
}
