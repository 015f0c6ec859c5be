/**
 * The timeline: a ruler with the work area and playhead, then one row per layer with its in/out bar; a layer
 * expanded with its chevron shows one row per animated property with its keyframes. Names stay pinned on the
 * left while the tracks scroll.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../components/icons.js';
import { Panel } from '../components/panel.js';
import { ScrubNumber } from '../components/scrub-number.js';
import { activeComp } from '../state/doc.js';
import { isAnimated, layerProperties } from '../state/layer-properties.js';
import { useStudio, useStudioState } from '../studio.js';
import { frameX, timeScale } from './timeline-geometry.js';
import { TimelineRuler } from './timeline-ruler.js';
import { KeyframeTrack, LayerBar } from './timeline-track.js';

const NAME_COLUMN_PX = 190;
/** Room before frame 0 and after the last frame, so keyframes there show whole. */
const TRACK_PAD_PX = 8;

export function TimelinePanel(): JSX.Element {
  const studio = useStudio();
  const doc = useStudioState((s) => s.doc);
  const frame = useStudioState((s) => s.frame);
  const zoom = useStudioState((s) => s.timelineZoom);
  const selection = useStudioState((s) => s.selection);
  const expanded = useStudioState((s) => s.expanded);
  const workArea = useStudioState((s) => s.workArea);
  const comp = activeComp(doc);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [viewWidth, setViewWidth] = useState(800);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() =>
      setViewWidth(el.clientWidth - NAME_COLUMN_PX - 2 * TRACK_PAD_PX - 12),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [comp !== null]);

  const actions = (
    <label class="inline-control">
      Zoom
      <ScrubNumber
        label="Timeline zoom"
        control="Timeline/zoom"
        value={zoom}
        min={1}
        max={40}
        step={0.05}
        precision={2}
        unit="x"
        onScrub={(v) => studio.store.update({ timelineZoom: v })}
        onCommit={(v) => studio.store.update({ timelineZoom: v })}
      />
    </label>
  );

  if (!comp) {
    return (
      <Panel name="Timeline" class="timeline-panel">
        <p class="empty">No active composition.</p>
      </Panel>
    );
  }
  const scale = timeScale(comp, viewWidth, zoom);
  const trackStyle = { width: `${scale.width}px`, marginLeft: `${TRACK_PAD_PX}px` };

  return (
    <Panel name="Timeline" class="timeline-panel" actions={actions}>
      <div class="timeline-scroll" ref={scrollRef}>
        <div class="tl-grid" style={{ width: `${NAME_COLUMN_PX + scale.width + 2 * TRACK_PAD_PX + 12}px` }}>
          <div class="tl-row tl-ruler-row">
            <div class="tl-name tl-corner">{comp.name}</div>
            <div class="tl-track" style={trackStyle}>
              <TimelineRuler comp={comp} scale={scale} workArea={workArea} />
            </div>
          </div>
          <div role="tree" aria-label={`Timeline of ${comp.name}`} class="tl-rows">
            {comp.layers.map((layer, index) => {
              const open = expanded.includes(layer.id);
              const animated = layerProperties(layer, doc).filter(isAnimated);
              return (
                <div key={layer.id} role="treeitem" aria-label={layer.name} aria-expanded={open}>
                  <div class={`tl-row ${layer.id === selection ? 'is-selected' : ''}`} role="row">
                    <div class="tl-name" onClick={() => studio.select(layer.id)}>
                      <button
                        class="icon-button expander"
                        aria-label={`${open ? 'Collapse' : 'Expand'} ${layer.name}`}
                        disabled={animated.length === 0}
                        onClick={(e) => {
                          e.stopPropagation();
                          studio.toggleExpanded(layer.id);
                        }}
                      >
                        {animated.length > 0 && (
                          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} />
                        )}
                      </button>
                      <span class="layer-index">{index + 1}</span>
                      <span class={`kind-chip kind-${layer.source.kind}`} />
                      <span class="name-text">{layer.name}</span>
                    </div>
                    <div class="tl-track" style={trackStyle}>
                      <LayerBar comp={comp} layer={layer} scale={scale} selected={layer.id === selection} />
                    </div>
                  </div>
                  {open &&
                    animated.map((row) => (
                      <div
                        class="tl-row tl-prop-row"
                        role="row"
                        aria-label={`${layer.name} ${row.name}`}
                        key={row.path}
                      >
                        <div class="tl-name tl-prop-name">
                          {row.group === 'Transform'
                            ? row.name
                            : `${row.group.replace('Effects/', '')} ${row.name}`}
                        </div>
                        <div class="tl-track" style={trackStyle}>
                          <KeyframeTrack comp={comp} layer={layer} row={row} scale={scale} />
                        </div>
                      </div>
                    ))}
                </div>
              );
            })}
          </div>
          <div
            class="playhead"
            style={{ left: `${NAME_COLUMN_PX + TRACK_PAD_PX + frameX(scale, frame)}px` }}
            aria-hidden="true"
          />
        </div>
      </div>
    </Panel>
  );
}
