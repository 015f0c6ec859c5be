/** The studio's layout: Project + Layers left, Viewer + Transport centre, Properties right, Timeline and the
 * Render Queue / Activity tabs along the bottom. */
import type { JSX } from 'preact';
import { Toasts } from './components/toasts.js';
import { ENDED_REMEDY } from './live/channel.js';
import { ActivityPanel } from './panels/activity.js';
import { LayersPanel } from './panels/layers.js';
import { ProjectPanel } from './panels/project.js';
import { PropertiesPanel } from './panels/properties.js';
import { RenderQueuePanel } from './panels/render-queue.js';
import { TimelinePanel } from './panels/timeline.js';
import { TransportPanel } from './panels/transport.js';
import { ViewerPanel } from './panels/viewer.js';
import { useStudio, useStudioState } from './studio.js';

const DOCK_TABS = ['Render Queue', 'Activity'] as const;

export function App(): JSX.Element {
  return (
    <div class="studio">
      <TopBar />
      <main class="workspace">
        <div class="area-left">
          <ProjectPanel />
          <LayersPanel />
        </div>
        <div class="area-center">
          <ViewerPanel />
          <TransportPanel />
        </div>
        <div class="area-right">
          <PropertiesPanel />
        </div>
        <div class="area-timeline">
          <TimelinePanel />
        </div>
        <div class="area-dock">
          <Dock />
        </div>
      </main>
      <Toasts />
    </div>
  );
}

function TopBar(): JSX.Element {
  const connection = useStudioState((s) => s.connection);
  const appName = useStudioState((s) => s.appName);
  const docName = useStudioState((s) => s.doc?.name ?? '');
  const pageId = useStudioState((s) => s.pageId);
  return (
    <header class="topbar">
      <span class="brand">EffectCraft Studio</span>
      <span class="doc-name">{docName}</span>
      <span class="spacer" />
      <span class="muted">{pageId}</span>
      <span class="muted">{appName}</span>
      <span class={`connection is-${connection}`} role="status" aria-label={`Connection ${connection}`}>
        {connection === 'open' ? 'live' : connection}
      </span>
      {connection === 'ended' && (
        <div class="session-ended" role="alert">
          {ENDED_REMEDY}
        </div>
      )}
    </header>
  );
}

function Dock(): JSX.Element {
  const studio = useStudio();
  const tab = useStudioState((s) => s.dockTab);
  const tabs = (
    <div class="tabs" role="tablist" aria-label="Render Queue and Activity">
      {DOCK_TABS.map((name) => (
        <button
          key={name}
          role="tab"
          class={`tab ${tab === name ? 'is-active' : ''}`}
          aria-selected={tab === name}
          aria-label={name}
          title={name}
          onClick={() => studio.showPanel(name)}
        >
          {name}
        </button>
      ))}
    </div>
  );
  return (
    <>
      <div class="dock-page" hidden={tab !== 'Render Queue'}>
        <RenderQueuePanel title={tabs} />
      </div>
      <div class="dock-page" hidden={tab !== 'Activity'}>
        <ActivityPanel title={tabs} />
      </div>
    </>
  );
}
