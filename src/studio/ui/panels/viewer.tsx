/**
 * The viewer: the active composition at the playhead, as the app's compositor draws it (the Player paints the
 * canvas). Zoom (fit, 50/100/200 %), render resolution, a transparency grid and action/title safe margins.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { VIEWER_ZOOMS } from '../../protocol.js';
import { Panel } from '../components/panel.js';
import { activeComp, timecode } from '../state/doc.js';
import { placeholderHint } from './placeholder-hint.js';
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

export function parseZoom(value: unknown): ViewerZoom {
  const s = String(value).replace('%', '').trim().toLowerCase();
  if (s === 'fit') return 'fit';
  const n = Number(s);
  const z = n > 2 ? n / 100 : n;
  const found = VIEWER_ZOOMS.find((v) => v === z);
  if (found === undefined) throw new Error(`zoom must be one of ${VIEWER_ZOOMS.join(', ')}`);
  return found;
}
