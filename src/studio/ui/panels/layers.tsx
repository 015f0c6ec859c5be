/**
 * The active composition's layers, top to bottom: select (click), rename (double click), show/hide (eye),
 * mute/unmute a layer that can be heard (speaker),
 * reorder (drag a row: layer.move), parent and blend mode (selects). Every change is one command.
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Composition, Layer } from '../../../engine/model.js';
import { TextField } from '../components/fields.js';
import { Icon } from '../components/icons.js';
import { Panel } from '../components/panel.js';
import { onTreeKeyDown, treeTabIndex } from '../components/tree-keys.js';
import { windowDrag } from '../components/window-drag.js';
import { layerHasSound, playsSoundOnly } from '../../../engine/shown-footage.js';
import { activeComp } from '../state/doc.js';
import { useStudio, useStudioState } from '../studio.js';

export const LAYER_ROW_PX = 24;
const DRAG_THRESHOLD_PX = 4;

export function LayersPanel(): JSX.Element {
  const studio = useStudio();
  const doc = useStudioState((s) => s.doc);
  const selection = useStudioState((s) => s.selection);
  const comp = activeComp(doc);
  const listRef = useRef<HTMLDivElement>(null);
  const [drop, setDrop] = useState<{ from: number; slot: number } | null>(null);

  if (!comp) {
    return (
      <Panel name="Layers">
        <p class="empty">No active composition.</p>
      </Panel>
    );
  }

  /** A row press: a click selects; a vertical drag past the threshold reorders (layer.move on release). */
  const onRowPointerDown = (e: PointerEvent, layer: Layer, index: number) => {
    if (e.button !== 0 || (e.target as Element).closest('button, select, input')) return;
    const startY = e.clientY;
    let dragging = false;
    let slot = index;
    windowDrag({
      move: (ev) => {
        if (!dragging && Math.abs(ev.clientY - startY) < DRAG_THRESHOLD_PX) return;
        dragging = true;
        const top = listRef.current?.getBoundingClientRect().top ?? 0;
        slot = Math.max(0, Math.min(comp.layers.length, Math.round((ev.clientY - top) / LAYER_ROW_PX)));
        setDrop({ from: index, slot });
      },
      up: () => {
        setDrop(null);
        if (!dragging) return studio.select(layer.id);
        // The slot counts gaps between rows; the engine's index is the place after removing the layer.
        const target = slot > index ? slot - 1 : slot;
        if (target !== index) {
          void studio.commands
            .run('layer.move', { comp: comp.id, layer: layer.id, index: target })
            .catch(() => undefined);
        }
      },
    });
  };

  return (
    <Panel name="Layers" actions={<span class="panel-subtitle">{comp.name}</span>}>
      <div class="layer-head" aria-hidden="true">
        <span />
        <span />
        <span>#</span>
        <span>Layer name</span>
        <span>Parent</span>
        <span>Mode</span>
      </div>
      <div
        class="layer-list"
        role="tree"
        aria-label={`Layers of ${comp.name}`}
        data-control="Layers/selected"
        ref={listRef}
        onKeyDown={(e) =>
          onTreeKeyDown(
            e,
            (row) => studio.select(row.dataset.layer ?? null),
            (row) => row.dataset.layer === selection,
          )
        }
      >
        {comp.layers.map((layer, index) => (
          <LayerRow
            key={layer.id}
            comp={comp}
            layer={layer}
            index={index}
            selected={layer.id === selection}
            tabIndex={treeTabIndex(
              layer.id === selection,
              index,
              comp.layers.some((l) => l.id === selection),
            )}
            onPointerDown={(e) => onRowPointerDown(e, layer, index)}
          />
        ))}
        {drop && <div class="drop-line" style={{ top: `${drop.slot * LAYER_ROW_PX - 1}px` }} />}
      </div>
    </Panel>
  );
}

function LayerRow(props: {
  comp: Composition;
  layer: Layer;
  index: number;
  selected: boolean;
  tabIndex: number;
  onPointerDown(e: PointerEvent): void;
}): JSX.Element {
  const { comp, layer } = props;
  const studio = useStudio();
  const blendModes = useStudioState((s) => s.blendModes);
  const doc = useStudioState((s) => s.doc);
  // A layer that can be heard has its speaker beside its eye, as After Effects' audio switch: muted layers show it.
  const audible = doc !== null && layerHasSound(doc, layer);
  const muted = layer.audio?.muted ?? false;
  // A sound file's layer has no picture and no transform: the engine refuses it a parent, children and a blend mode.
  const soundOnly = doc !== null && playsSoundOnly(doc, layer);
  const soundOnlyTitle = soundOnly ? 'Plays sound only: no picture to parent or blend' : undefined;
  const [renaming, setRenaming] = useState(false);
  const run = (id: string, params: Record<string, unknown>) =>
    studio.editLayer(id, { comp: comp.id, layer: layer.id, ...params });

  return (
    <div
      class={`layer-row ${props.selected ? 'is-selected' : ''} ${layer.enabled ? '' : 'is-hidden'}`}
      role="treeitem"
      aria-label={layer.name}
      aria-selected={props.selected}
      tabIndex={props.tabIndex}
      data-layer={layer.id}
      onPointerDown={props.onPointerDown}
      onDblClick={(e) => {
        if (!(e.target as Element).closest('button, select, input')) setRenaming(true);
      }}
    >
      <button
        class="icon-button eye"
        aria-label={`${layer.enabled ? 'Hide' : 'Show'} ${layer.name}`}
        aria-pressed={layer.enabled}
        onClick={() => run('layer.setEnabled', { enabled: !layer.enabled })}
      >
        <Icon name={layer.enabled ? 'eye' : 'eyeOff'} />
      </button>
      {audible ? (
        <button
          class="icon-button speaker"
          aria-label={`${muted ? 'Unmute' : 'Mute'} ${layer.name}`}
          aria-pressed={!muted}
          onClick={() => run('layer.setAudioMuted', { muted: !muted })}
        >
          <Icon name={muted ? 'soundOff' : 'sound'} />
        </button>
      ) : (
        <span />
      )}
      <span class="layer-index">{props.index + 1}</span>
      <span class="layer-name">
        <span class={`kind-chip kind-${layer.source.kind}`} title={layer.source.kind} />
        {renaming ? (
          <TextField
            label={`Rename ${layer.name}`}
            value={layer.name}
            autoFocus
            onCommit={(name) => {
              setRenaming(false);
              run('layer.rename', { name });
            }}
            onCancel={() => setRenaming(false)}
            onBlur={() => setRenaming(false)}
          />
        ) : (
          <span class="name-text">{layer.name}</span>
        )}
      </span>
      <select
        class="mini-select"
        aria-label={`Parent of ${layer.name}`}
        disabled={soundOnly && layer.parent === null}
        title={soundOnlyTitle}
        value={layer.parent ?? ''}
        onChange={(e) => run('layer.setParent', { parent: e.currentTarget.value || null })}
      >
        <option value="">None</option>
        {comp.layers
          .filter((l) => l.id !== layer.id && (l.id === layer.parent || !doc || !playsSoundOnly(doc, l)))
          .map((l) => (
            <option key={l.id} value={l.id}>
              {comp.layers.indexOf(l) + 1}. {l.name}
            </option>
          ))}
      </select>
      <select
        class="mini-select"
        aria-label={`Blend mode of ${layer.name}`}
        disabled={soundOnly}
        title={soundOnlyTitle}
        value={layer.blendMode}
        onChange={(e) => run('layer.setBlendMode', { mode: e.currentTarget.value })}
      >
        {(blendModes.includes(layer.blendMode) ? blendModes : [layer.blendMode, ...blendModes]).map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </div>
  );
}
