/**
 * The viewer: the active composition at the playhead, as the app's compositor draws it (the Player paints the
 * canvas). Zoom (fit, 50/100/200 %), render resolution, a transparency grid and action/title safe margins.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { VIEWER_ZOOMS } from '../../protocol.js';
import { Panel } from '../components/panel.js';
import type { Project } from '../../../engine/model.js';
import { activeComp, footageShown, timecode } from '../state/doc.js';
import type { ViewerResolution, ViewerZoom } from '../state/studio-state.js';
import { useStudio, useStudioState } from '../studio.js';

export const RESOLUTIONS: readonly ViewerResolution[] = ['auto', 'full', 'half', 'quarter'];
const FIXED_SCALE: Record<Exclude<ViewerResolution, 'auto'>, number> = { full: 1, half: 0.5, quarter: 0.25 };

/** The render scale for a resolution setting: 'auto' asks for no more pixels than the screen shows. */
export function renderScaleFor(resolution: ViewerResolution, displayZoom: number): number {
  if (resolution !== 'auto') return FIXED_SCALE[resolution];
  const needed = displayZoom * (window.devicePixelRatio || 1);
  return [0.25, 0.5, 1].find((s) => s >= needed - 1e-6) ?? 1;
}

export const zoomLabel = (z: ViewerZoom) => (z === 'fit' ? 'Fit' : `${z * 100}%`);

export function ViewerPanel(): JSX.Element {
  const studio = useStudio();
  const doc = useStudioState((s) => s.doc);
  const zoom = useStudioState((s) => s.zoom);
  const resolution = useStudioState((s) => s.resolution);
  const grid = useStudioState((s) => s.transparencyGrid);
  const safe = useStudioState((s) => s.safeMargins);
  const painted = useStudioState((s) => s.painted);
  const renderScale = useStudioState((s) => s.renderScale);
  const frame = useStudioState((s) => s.frame);
  const missing = useStudioState((s) => s.missingFootage);
  const changed = useStudioState((s) => s.changedFootage);
  const comp = activeComp(doc);
  const footageHint = comp ? placeholderHint(doc, comp.id, missing, changed) : null;
  const stageRef = useRef<HTMLDivElement>(null);
  const [stage, setStage] = useState({ width: 800, height: 450 });

  useEffect(() => {
    const el = stageRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setStage({ width: el.clientWidth, height: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const fit = comp ? Math.min((stage.width - 24) / comp.width, (stage.height - 24) / comp.height) : 1;
  const displayZoom = zoom === 'fit' ? Math.max(0.01, fit) : zoom;
  const scale = renderScaleFor(resolution, displayZoom);
  useEffect(() => {
    if (scale !== renderScale) studio.store.update({ renderScale: scale });
  }, [scale, renderScale, studio]);

  const actions = (
    <>
      <select
        class="mini-select"
        aria-label="Viewer zoom"
        data-control="Viewer/zoom"
        value={String(zoom)}
        onChange={(e) => studio.store.update({ zoom: parseZoom(e.currentTarget.value) })}
      >
        {VIEWER_ZOOMS.map((z) => (
          <option key={z} value={String(z)}>
            {zoomLabel(z)}
          </option>
        ))}
      </select>
      <select
        class="mini-select"
        aria-label="Viewer resolution"
        data-control="Viewer/resolution"
        value={resolution}
        onChange={(e) => studio.store.update({ resolution: e.currentTarget.value as ViewerResolution })}
      >
        {RESOLUTIONS.map((r) => (
          <option key={r} value={r}>
            {r[0]!.toUpperCase() + r.slice(1)}
          </option>
        ))}
      </select>
      <button
        class={`toggle ${grid ? 'is-on' : ''}`}
        aria-label="Transparency grid"
        aria-pressed={grid}
        data-control="Viewer/transparencyGrid"
        onClick={() => studio.store.update({ transparencyGrid: !grid })}
      >
        <span class="checker-icon" aria-hidden="true" />
      </button>
      <button
        class={`toggle ${safe ? 'is-on' : ''}`}
        aria-label="Safe margins"
        aria-pressed={safe}
        data-control="Viewer/safeMargins"
        onClick={() => studio.store.update({ safeMargins: !safe })}
      >
        <span class="safe-icon" aria-hidden="true" />
      </button>
    </>
  );

  return (
    <Panel name="Viewer" class="viewer-panel" actions={actions}>
      <div class="viewer-stage" ref={stageRef}>
        {comp ? (
          <div
            class="viewer-frame"
            style={{ width: `${comp.width * displayZoom}px`, height: `${comp.height * displayZoom}px` }}
          >
            <canvas
              class="viewer-canvas"
              aria-label={`Viewer: ${comp.name} at frame ${frame}`}
              ref={(canvas) => studio.player.output.attach(canvas)}
            />
            {safe && (
              <div class="safe-margins" aria-hidden="true">
                <div class="safe action" />
                <div class="safe title" />
                <div class="safe-cross" />
              </div>
            )}
          </div>
        ) : (
          <p class="empty">No composition. Create one in the Project panel.</p>
        )}
      </div>
      {comp && (
        <div class="viewer-status" aria-live="off">
          <span>
            {comp.width}×{comp.height}
          </span>
          <span>{Math.round(displayZoom * 100)}%</span>
          <span>render {scale === 1 ? 'full' : scale === 0.5 ? 'half' : 'quarter'}</span>
          <span>{timecode(comp, painted?.frame ?? frame)}</span>
          <span class="muted">rev {painted?.revision ?? '–'}</span>
          {painted && painted.warnings.length > 0 && (
            // Missing footage and the like: the compositor drew a placeholder and said why (in the tooltip);
            // footage the Project panel marks is named with what to do there.
            <span class="warning" role="status" title={painted.warnings.join('\n')}>
              ⚠ {footageHint ?? painted.warnings[0]}
              {!footageHint && painted.warnings.length > 1 && ` (+${painted.warnings.length - 1})`}
            </span>
          )}
        </div>
      )}
    </Panel>
  );
}

/**
 * The viewer's warning in plain words when the placeholder stands for footage the Project panel marks: which
 * file, why, and the button to use (the compositor's own words stay in the tooltip, and in an agent's preview).
 */
function placeholderHint(
  doc: Project | null,
  compId: string,
  missing: readonly string[],
  changed: Readonly<Record<string, string>>,
): string | null {
  const shown = footageShown(doc, compId);
  const name = (id: string) => doc?.items.find((i) => i.id === id)?.name ?? id;
  const gone = missing.filter((id) => shown.has(id));
  const redone = Object.keys(changed).filter((id) => shown.has(id) && !gone.includes(id));
  const more = (n: number) => (n > 1 ? ` (and ${n - 1} more)` : '');
  if (redone.length)
    return `"${name(redone[0]!)}"${more(redone.length)} changed on disk, so a placeholder is shown: click Relink beside it in the Project panel, then Apply.`;
  // A sound file has no picture to stand in for: what is lost is its sound (the mix leaves it out).
  const sound = (id: string) => {
    const item = doc?.items.find((i) => i.id === id);
    return item?.type === 'footage' && item.media?.kind === 'audio';
  };
  if (gone.length) {
    const lost = gone.every(sound) ? 'its sound is left out' : 'a placeholder is shown';
    return `"${name(gone[0]!)}"${more(gone.length)} is missing, so ${lost}: click Relink beside it in the Project panel and give its new place.`;
  }
  return null;
}

export function parseZoom(value: unknown): ViewerZoom {
  const s = String(value).replace('%', '').trim().toLowerCase();
  if (s === 'fit') return 'fit';
  const n = Number(s);
  const z = n > 2 ? n / 100 : n;
  const found = VIEWER_ZOOMS.find((v) => v === z);
  if (found === undefined) throw new Error(`zoom must be one of ${VIEWER_ZOOMS.join(', ')}`);
  return found;
}
