/**
 * page.control: the app-level actions the page does itself (focus, showPanel, viewerZoom, listControls,
 * screenshot, layout). An unknown action is bad_argument listing the known ones.
 */
import { PANELS, type PanelName } from '../../protocol.js';
import { RpcError } from '../live/rpc-error.js';
import type { Studio } from '../studio.js';
import { describeControls, findControl } from './controls.js';
import { describe, rectOf } from './describe.js';
import { screenshotPage } from './screenshot.js';
import { viewerSettled } from './viewer-settled.js';

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

export async function showPanel(studio: Studio, name: unknown) {
  const panel = PANELS.find((p) => p.toLowerCase() === String(name).toLowerCase());
  if (!panel) {
    throw new RpcError({
      code: 'bad_argument',
      message: `No panel "${String(name)}".`,
      remediation: `Panels: ${PANELS.join(', ')}.`,
    });
  }
  studio.showPanel(panel);
  await nextFrame();
  const el = document.querySelector(`[data-panel="${panel}"]`);
  el?.scrollIntoView({ block: 'nearest' });
  return { panel, rect: el ? rectOf(el) : null };
}

const MAIN_CONTROLS =
  'button, select, input, [role="slider"], [role="tab"], [role="treeitem"], [role="progressbar"], canvas';

/** Where each panel and each labelled control is, so an agent can click without looking at pixels. */
function layout() {
  const panels = PANELS.map((name) => {
    const el = document.querySelector(`[data-panel="${name}"]`);
    const visible = !!el && el.getClientRects().length > 0;
    return { name, visible, rect: el && visible ? rectOf(el) : null };
  });
  const buttons = [...document.querySelectorAll(MAIN_CONTROLS)]
    .filter((el) => el.getClientRects().length > 0)
    .map((el) => {
      const hit = describe(el)!;
      return {
        label: hit.label,
        role: hit.role,
        ...(hit.control && { control: hit.control }),
        panel: el.closest('[data-panel]')?.getAttribute('data-panel') ?? null,
        rect: rectOf(el),
        ...((el as HTMLButtonElement).disabled && { disabled: true }),
      };
    })
    .filter((b) => b.label !== '');
  return { viewport: { width: window.innerWidth, height: window.innerHeight }, panels, buttons };
}

const ACTIONS = {
  focus: async (studio: Studio) => {
    window.focus();
    studio.focus();
    return { focused: true };
  },
  showPanel: (studio: Studio, p: Record<string, unknown>) => showPanel(studio, p.panel as PanelName),
  viewerZoom: async (studio: Studio, p: Record<string, unknown>) => {
    const control = findControl(studio, 'Viewer/zoom');
    await control.set(p.zoom);
    return { zoom: control.get() };
  },
  listControls: async (studio: Studio) => ({ controls: describeControls(studio) }),
  // The picture of the document as it is now: an edit just made is waited for (bounded), else said so.
  screenshot: async (studio: Studio) => {
    const viewer = await viewerSettled(studio);
    return { ...(await screenshotPage()), viewer };
  },
  layout: async () => layout(),
} satisfies Record<string, (studio: Studio, params: Record<string, unknown>) => Promise<unknown>>;

export function pageControl(
  studio: Studio,
  p: { action: string; params?: Record<string, unknown> },
): Promise<unknown> {
  const action = Object.hasOwn(ACTIONS, p.action) ? ACTIONS[p.action as keyof typeof ACTIONS] : undefined;
  if (!action) {
    return Promise.reject(
      new RpcError({
        code: 'bad_argument',
        message: `Unknown page action "${p.action}".`,
        remediation: `Actions: ${Object.keys(ACTIONS).join(', ')}.`,
      }),
    );
  }
  return action(studio, p.params ?? {});
}
